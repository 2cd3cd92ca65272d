//! The one writer of puzzle text: every New-puzzle form written, read back to the same puzzle;
//! the in-place edits of `format::edit` keeping a file's comments; removing a node renumbering
//! every per-cell list, against the smaller puzzle built directly; `modsolve new`'s forms and
//! lists of moduli end to end.

use modsolve::Puzzle;
use modsolve::format::edit::{self, Edit, EditError};
use modsolve::format::{parse_puzzle, to_ron};
use modsolve::model::{Neighborhood, Topology};
use modsolve::scaffold::{Form, GridPress, Moduli, Spec, Start, StarterError, new_puzzle};

use crate::util::modsolve;

fn pictures(text: &str) -> Option<Vec<String>> {
    Some(text.lines().map(str::to_string).collect())
}

/// Every form with the cells it has.
fn forms() -> Vec<(Form, usize)> {
    vec![
        (Form::grid(4, 5), 20),
        (
            Form::Grid {
                rows: 3,
                cols: 4,
                wrap: true,
                press: GridPress::Named(Neighborhood::King),
                mask: None,
            },
            12,
        ),
        (
            Form::Grid {
                rows: 0,
                cols: 0,
                wrap: false,
                press: GridPress::Stencil(vec!["x#".into(), "##".into()]),
                mask: pictures("..#..\n.###.\n#####\n.###.\n..#.."),
            },
            13,
        ),
        (Form::Hex { rows: 3, cols: 4, mask: None }, 12),
        (Form::Hex { rows: 0, cols: 0, mask: pictures(".##.\n###.\n.##.") }, 7),
        (Form::Cube(2), 24),
        (Form::Path(6), 6),
        (Form::Cycle(5), 5),
        (Form::Edges(4), 4),
        (Form::Cells(3, Some(vec![vec![(0, 1), (1, 1)], vec![(1, 1), (2, 2)], vec![(2, 1)]])), 3),
        (Form::Cells(4, None), 4),
    ]
}

/// Each form, with one modulus and with one per cell, and each start: the text reads back to
/// the puzzle made, the library's plain writer gives the same puzzle again, and the start is
/// what was asked (one press of button 0 from the target, or every cell at a value).
#[test]
fn every_new_form_round_trips() {
    for (form, cells) in forms() {
        let per_cell: Vec<u64> = (0..cells as u64).map(|i| 2 + i % 5).collect();
        for moduli in [Moduli::One(3), Moduli::PerCell(per_cell.clone())] {
            for start in [Start::OnePress, Start::All(1)] {
                let spec = Spec { form: form.clone(), moduli: moduli.clone(), press: (1, 1), start };
                let (puzzle, text) = new_puzzle(&spec).unwrap_or_else(|e| panic!("{form:?}: {e}"));
                assert_eq!(puzzle.cell_count(), cells, "{form:?}");
                assert_eq!(parse_puzzle(&text).unwrap(), puzzle, "{form:?}:\n{text}");
                assert_eq!(parse_puzzle(&to_ron(&puzzle, "")).unwrap(), puzzle, "{form:?}");
                assert!(text.starts_with("// "), "{text}");
                let want = match &moduli {
                    Moduli::One(m) => vec![*m; cells],
                    Moduli::PerCell(list) => list.clone(),
                };
                assert_eq!(puzzle.moduli().to_vec(), want);
                assert_eq!(puzzle.target().to_vec(), vec![0; cells]);
                let start_values = puzzle.start().to_vec();
                match start {
                    Start::All(v) => assert_eq!(start_values, vec![v; cells]),
                    Start::OnePress => {
                        // One press of button 0 reaches the target.
                        let mut presses = vec![num_bigint::BigUint::from(0u32); puzzle.button_count()];
                        presses[0] = 1u32.into();
                        assert_eq!(puzzle.apply(&start_values, &presses), vec![0; cells], "{form:?}");
                        assert_ne!(start_values, vec![0; cells], "{form:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn new_refuses_what_it_cannot_make() {
    let spec = |form, moduli| Spec { moduli, ..Spec::new(form, 2) };
    assert_eq!(
        new_puzzle(&spec(Form::Path(4), Moduli::PerCell(vec![7, 8, 7]))).unwrap_err(),
        StarterError::ModuliLength { given: 3, cells: 4 }
    );
    assert_eq!(
        new_puzzle(&spec(Form::Path(4), Moduli::PerCell(vec![7, 1, 7, 6]))).unwrap_err(),
        StarterError::Modulus(1)
    );
    assert_eq!(new_puzzle(&spec(Form::Cube(0), Moduli::One(2))).unwrap_err(), StarterError::NoCells);
    let no_pressed = Form::Grid {
        rows: 2,
        cols: 2,
        wrap: false,
        press: GridPress::Stencil(vec!["##".into()]),
        mask: None,
    };
    let error = new_puzzle(&spec(no_pressed, Moduli::One(2))).unwrap_err().to_string();
    assert!(error.contains("no pressed cell"), "{error}");
    assert_eq!("7,8, 7,6".parse::<Moduli>(), Ok(Moduli::PerCell(vec![7, 8, 7, 6])));
    assert_eq!("7".parse::<Moduli>(), Ok(Moduli::One(7)));
    assert!("7,x".parse::<Moduli>().unwrap_err().contains("value 2 of the list, \"x\""));
    assert_eq!(Spec::new(Form::Hex { rows: 3, cols: 4, mask: None }, 2).file_name(), "hex-3x4.ron");
}

/// A designer's file with comments everywhere and every per-cell list written as a list.
const COMMENTED: &str = "// The tentacles, by hand.
Puzzle(
    name: \"Squid\", // a name
    // Five nodes: a path and a chord.
    graph: Edges(cells: 5, edges: [(0, 1), (1, 2), (2, 3), (3, 4), (0, 3)]),
    modulus: [7, 8, 7, 6, 5], /* one each */
    press: (self: 2, neighbors: 1),
    start: [2, 4, 5, 3, 1],
    // Solved is all zero.
    target: [0, 1, 0, 2, 0],
    labels: [\"a\", \"b\", \"c\", \"d\", \"e\"],
    layout: [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (4.0, 1.5)],
    max_presses: [6, 7, 6, 5, 4],
)
";

fn comments(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|line| line.find("//").or_else(|| line.find("/*")).map(|at| &line[at..]))
        .collect()
}

/// Every edit made on the commented file keeps each of its comments, and reads back.
#[test]
fn each_edit_keeps_the_comments() {
    let puzzle = parse_puzzle(COMMENTED).unwrap();
    let kept = comments(COMMENTED);
    assert_eq!(kept.len(), 5);
    let edits = [
        Edit { graph: Some((6, vec![(0, 1), (4, 5)])), ..Edit::default() },
        Edit { remove_node: Some(2), ..Edit::default() },
        Edit { moduli: Some(vec![3, 3, 3, 3, 3]), ..Edit::default() },
        Edit { start: Some(vec![1, 1, 1, 1, 1]), target: Some(vec![0, 0, 0, 0, 1]), ..Edit::default() },
        Edit { layout: Some(vec![[0.0, 1.0]; 5]), ..Edit::default() },
    ];
    for e in edits {
        let (edited, text) = edit::apply(COMMENTED, &e).unwrap_or_else(|err| panic!("{e:?}: {err}"));
        assert_eq!(parse_puzzle(&text).unwrap(), edited);
        assert_eq!(comments(&text), kept, "{e:?}:\n{text}");
        assert_ne!(edited, puzzle, "{e:?}");
    }
    let (named, text) = edit::set_field(COMMENTED, "name", "\"Kraken\"").unwrap();
    assert_eq!(named.name(), Some("Kraken"));
    assert_eq!(comments(&text), kept);
    // Grown by one node: the lists grow, the new node takes the last modulus and the most presses.
    let (grown, _) =
        edit::apply(COMMENTED, &Edit { graph: Some((6, vec![(0, 5)])), ..Edit::default() }).unwrap();
    assert_eq!(grown.moduli().to_vec(), [7, 8, 7, 6, 5, 5]);
    assert_eq!(grown.max_presses().unwrap(), [6, 7, 6, 5, 4, 7]);
    assert_eq!(grown.labels().unwrap()[5], "5");
    assert_eq!(grown.layout().unwrap().points()[5], [0.0, 3.0]);
}

/// Removing node k, for every k: the edges lose k's and the higher nodes move down by one,
/// and every per-cell list loses element k: the same puzzle as building the smaller one.
#[test]
fn removing_a_node_renumbers_every_per_cell_list() {
    let puzzle = parse_puzzle(COMMENTED).unwrap();
    let edges = [(0, 1), (1, 2), (2, 3), (3, 4), (0, 3)];
    let drop = |values: Vec<u64>, k: usize| -> Vec<u64> {
        values.into_iter().enumerate().filter(|&(i, _)| i != k).map(|(_, v)| v).collect()
    };
    for k in 0..5 {
        let (removed, text) = edit::remove_node(COMMENTED, &puzzle, k).unwrap();
        let renumber = |i: usize| if i > k { i - 1 } else { i };
        let mut adjacency = vec![Vec::new(); 4];
        for &(a, b) in edges.iter().filter(|&&(a, b)| a != k && b != k) {
            adjacency[renumber(a)].push(renumber(b));
            adjacency[renumber(b)].push(renumber(a));
        }
        for list in &mut adjacency {
            list.sort_unstable();
        }
        let labels: Vec<String> = ["a", "b", "c", "d", "e"]
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != k)
            .map(|(_, l)| l.to_string())
            .collect();
        let mut layout = vec![[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0], [4.0, 1.5]];
        layout.remove(k);
        let direct = Puzzle::builder(Topology::Edges { adjacency })
            .name("Squid")
            .moduli(drop(vec![7, 8, 7, 6, 5], k))
            .press(2, 1)
            .start(drop(vec![2, 4, 5, 3, 1], k))
            .target(drop(vec![0, 1, 0, 2, 0], k))
            .labels(labels)
            .layout(layout)
            .max_presses(drop(vec![6, 7, 6, 5, 4], k))
            .build()
            .unwrap();
        assert_eq!(removed, direct, "node {k}:\n{text}");
        assert_eq!(comments(&text), comments(COMMENTED));
    }
    // Shorthand covers the smaller graph as written.
    let ring = "Puzzle(graph: Cycle(4), modulus: 3, start: All(1))";
    let (smaller, text) = edit::remove_node(ring, &parse_puzzle(ring).unwrap(), 0).unwrap();
    assert_eq!(text, "Puzzle(graph: Edges(cells: 3, edges: [(0, 1), (1, 2)]), modulus: 3, start: All(1))");
    assert_eq!(smaller.start().to_vec(), [1, 1, 1]);
    // Refused: a node that is not there, the last node, a board with a picture.
    assert_eq!(edit::remove_node(COMMENTED, &puzzle, 5).unwrap_err(), EditError::Node { node: 5, cells: 5 });
    let one = "Puzzle(graph: Path(1), modulus: 2)";
    assert_eq!(
        edit::remove_node(one, &parse_puzzle(one).unwrap(), 0).unwrap_err(),
        EditError::Node { node: 0, cells: 1 }
    );
    let grid = "Puzzle(graph: Grid(rows: 2, cols: 2), modulus: 2)";
    assert_eq!(edit::remove_node(grid, &parse_puzzle(grid).unwrap(), 0).unwrap_err(), EditError::NotAGraph);
}

fn new_cli(args: &[&str]) -> (Option<i32>, String, String) {
    let output = modsolve().arg("new").args(args).output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into(),
        String::from_utf8_lossy(&output.stderr).into(),
    )
}

/// `modsolve new hex` and `new cube` with no further flags, `--modulus` as a list, and a list
/// of the wrong length (exit 2, nothing on standard output).
#[test]
fn new_makes_hex_cube_and_lists_of_moduli() {
    let (code, text, _) = new_cli(&["hex"]);
    assert_eq!(code, Some(0));
    let hex = parse_puzzle(&text).unwrap();
    assert_eq!((hex.cell_count(), hex.topology().is_hex()), (25, true));
    let (code, text, _) = new_cli(&["cube"]);
    assert_eq!(code, Some(0));
    assert_eq!(parse_puzzle(&text).unwrap().cell_count(), 54);
    assert!(text.contains("graph: Cube(3),"), "{text}");
    let (code, text, _) = new_cli(&["path", "--cells", "4", "--modulus", "7,8,7,6"]);
    assert_eq!(code, Some(0));
    let path = parse_puzzle(&text).unwrap();
    assert_eq!(path.moduli().to_vec(), [7, 8, 7, 6]);
    assert!(text.contains("    modulus: [7, 8, 7, 6],\n"), "{text}");
    let (code, out, err) = new_cli(&["path", "--cells", "5", "--modulus", "7,8,7,6"]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert_eq!(
        err,
        "error: --modulus lists 4 moduli, but the puzzle has 5 cells (give one number, or one per cell)\n"
    );
    let (code, out, err) = new_cli(&["grid", "--modulus", "7,x"]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(err.contains("value 2 of the list, \"x\", is not a whole number"), "{err}");
}
