//! Where each cell of a puzzle is drawn: one [`Layout`] for the playground's page and the SVG
//! writer. Pictures (grids, masks, hex boards) keep their rows and columns, so a big board is
//! drawn a pixel a cell and carries no per-cell list; small puzzles without a picture get cell
//! centres in cell widths: a path is a line, a cycle a ring, an `Edges` graph is laid out by
//! stress majorisation (deterministic: the same graph gives the same picture), the cube's faces
//! apart (each face named), and explicit buttons (not cells) a row of named buttons under the
//! cells, unless they are as many as the cells or placed by `button_at:`: then each is drawn on
//! its cell (Merlin's nine squares). A torus says that it wraps. A file's `layout:` field places the cells itself.

use serde::Serialize;

use crate::model::{BoardKind, Puzzle, Topology};

mod stress;
use stress::stress;

/// Boards with more cells than this are drawn a pixel a cell, without values or shapes.
pub const TEXT_CELL_LIMIT: usize = 4096;

/// `Edges` graphs of up to this many cells are laid out by stress majorisation (its cost grows
/// with the square of the cells); bigger ones are drawn in rows.
pub const STRESS_CELLS: usize = 150;

/// At most this many explicit buttons are placed on the picture (more are listed by the page).
pub const PLACED_BUTTONS: usize = 64;

/// At most this many edges are drawn.
pub const DRAWN_EDGES: usize = 20_000;

/// The distance between the centres of neighbouring cells drawn as circles, in cell widths.
pub const NODE_SPACING: f64 = 1.5;

/// The gap between the faces of the cube's net, in cell widths.
pub const FACE_GAP: f64 = 0.4;

/// How a cell is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// A rounded square (grids, masks, the cube).
    Square,
    /// A pointy-top hexagon (hex boards).
    Hexagon,
    /// A circle (paths, cycles, graphs, unconnected cells).
    Circle,
}

/// An explicit button drawn on the picture: its name, its centre and the cells it changes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ButtonPlace {
    /// The button's name for people (`button 0`).
    pub name: String,
    /// Its centre `[x, y]` in cell widths.
    pub centre: [f64; 2],
    /// The cells a press changes, ascending.
    pub cells: Vec<usize>,
    /// The cell the button is drawn on (a click on it presses the button), when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell: Option<usize>,
}

/// A name written over part of the picture: a face of the cube.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Caption {
    /// The words (`top`, `front`, …).
    pub name: String,
    /// The centre `[x, y]` of the words, in cell widths.
    pub at: [f64; 2],
}

/// Where each cell is drawn. Coordinates are in cell widths, `y` down; the picture spans
/// `width × height`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Layout {
    /// Rows of the picture (of the pixel drawing of a board too big for shapes).
    pub rows: usize,
    /// Columns of the picture.
    pub cols: usize,
    /// Odd rows drawn half a cell to the right.
    pub hex: bool,
    /// The `[row, col]` of every cell; `None` when cell `i` is at `(i / cols, i % cols)` (a
    /// plain grid), so big boards carry no list.
    pub positions: Option<Vec<[usize; 2]>>,
    /// How each cell is drawn.
    pub shape: Shape,
    /// The picture's width.
    pub width: f64,
    /// The picture's height.
    pub height: f64,
    /// The centre `[x, y]` of every cell; `None` when the cells are at their picture places
    /// (the centre of row `r`, column `c` is `(c + ½, r + ½)`, hex odd rows `½` further right).
    pub centres: Option<Vec<[f64; 2]>>,
    /// Lines to draw between cells: the edges of paths, cycles and graphs.
    pub edges: Vec<[usize; 2]>,
    /// Explicit buttons placed under the cells (empty when the buttons are the cells, or too
    /// many to place).
    pub buttons: Vec<ButtonPlace>,
    /// Whether a designer may move the cells (and the page write `layout:` back).
    pub movable: bool,
    /// Whether cells have labels written under them (circles) or in them.
    pub labels: bool,
    /// Whether the picture's edges wrap around (a torus): the page marks its sides.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub wrap: bool,
    /// Names written over parts of the picture (the cube's faces).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub captions: Vec<Caption>,
}

impl Layout {
    /// The `(row, col)` of cell `i` in the picture.
    pub fn place(&self, i: usize) -> (usize, usize) {
        match &self.positions {
            Some(positions) => (positions[i][0], positions[i][1]),
            None => (i / self.cols.max(1), i % self.cols.max(1)),
        }
    }

    /// The centre of cell `i`, in cell widths.
    pub fn centre(&self, i: usize) -> [f64; 2] {
        if let Some(centres) = &self.centres {
            return centres[i];
        }
        let (r, c) = self.place(i);
        let shift = if self.hex && r % 2 == 1 { 0.5 } else { 0.0 };
        [c as f64 + 0.5 + shift, r as f64 + 0.5]
    }
}

/// Where the cells (and explicit buttons) of `puzzle` are drawn; see the module doc.
pub fn layout(puzzle: &Puzzle) -> Layout {
    let topology = puzzle.topology();
    let cells = puzzle.cell_count();
    let shapes = cells <= TEXT_CELL_LIMIT;
    let labels = shapes && puzzle.labels().is_some_and(|l| l.len() == cells);
    let mut out = match topology.picture_size() {
        Some((rows, cols)) => picture_layout(topology, (rows, cols), cells, shapes, labels),
        None => free_layout(puzzle, cells, shapes, labels),
    };
    if shapes && let Some(given) = puzzle.layout() {
        out.centres = Some(bounded(given.points()));
        out.movable = true;
        if out.shape == Shape::Square && out.edges.is_empty() && topology.picture_size().is_none() {
            out.shape = Shape::Circle;
        }
    }
    if let Some(centres) = &mut out.centres {
        let (width, height) = fit(centres);
        out.width = width;
        out.height = height;
    }
    if labels && out.shape == Shape::Circle {
        out.height += 0.45;
    }
    if let Topology::Board(board) = topology
        && let BoardKind::Cube(n) = board.kind()
        && shapes
        && puzzle.layout().is_none()
    {
        name_faces(&mut out, *n, cells);
    }
    if shapes && !puzzle.buttons_are_cells() && puzzle.button_count() <= PLACED_BUTTONS {
        place_buttons(puzzle, &mut out);
    }
    out
}

/// The layout of a board with a picture (`rows` × `cols`, from the topology): grid, mask and
/// hex boards keep their rows and columns, the cube's faces are drawn apart.
fn picture_layout(
    topology: &Topology,
    (rows, cols): (usize, usize),
    cells: usize,
    shapes: bool,
    labels: bool,
) -> Layout {
    let hex = topology.is_hex();
    let positions = topology
        .grid_shape()
        .is_none()
        .then(|| (0..cells).map(|i| topology.position(i).map_or([0, i], |(r, c)| [r, c])).collect());
    let mut out = Layout {
        rows,
        cols,
        hex,
        positions,
        shape: if hex { Shape::Hexagon } else { Shape::Square },
        width: cols as f64 + if hex { 0.5 } else { 0.0 },
        height: rows as f64,
        centres: None,
        edges: Vec::new(),
        buttons: Vec::new(),
        movable: false,
        labels,
        wrap: false,
        captions: Vec::new(),
    };
    out.wrap = match topology {
        Topology::Grid { wrap, .. } => *wrap,
        Topology::Board(board) => matches!(board.kind(), BoardKind::Grid { wrap: true, .. }),
        _ => false,
    };
    if let Topology::Board(board) = topology
        && let BoardKind::Cube(n) = board.kind()
        && shapes
    {
        let n = *n;
        let centres: Vec<[f64; 2]> = (0..cells)
            .map(|i| {
                let (r, c) = out.place(i);
                let [x, y] = [c as f64 + 0.5, r as f64 + 0.5];
                [x + FACE_GAP * (c / n) as f64, y + FACE_GAP * (r / n) as f64]
            })
            .collect();
        out.width += 3.0 * FACE_GAP;
        out.height += 2.0 * FACE_GAP;
        out.centres = Some(centres);
    }
    out
}

/// The layout of a puzzle without a picture: pixels in a square-ish block for big puzzles,
/// shapes placed automatically (or by the file's `layout:`) for small ones.
fn free_layout(puzzle: &Puzzle, cells: usize, shapes: bool, labels: bool) -> Layout {
    let topology = puzzle.topology();
    // No picture: pixels in a square-ish block for big puzzles, shapes for small ones.
    let cols = (cells as f64).sqrt().ceil().max(1.0) as usize;
    let rows = cells.div_ceil(cols).max(1);
    let mut out = Layout {
        rows,
        cols,
        hex: false,
        positions: None,
        shape: Shape::Circle,
        width: cols as f64,
        height: rows as f64,
        centres: None,
        edges: Vec::new(),
        buttons: Vec::new(),
        movable: false,
        labels,
        wrap: false,
        captions: Vec::new(),
    };
    if shapes {
        // A file's own layout spares the automatic one (a graph's costs the most).
        out.centres = Some(match puzzle.layout() {
            Some(given) => bounded(given.points()),
            None => automatic(topology),
        });
        out.edges = edges(topology);
        out.movable = true;
    }
    out
}

/// The cube's faces, as `model::board` unfolds them: `(face row, face column, name)`.
const FACES: [(usize, usize, &str); 6] =
    [(0, 1, "top"), (1, 0, "left"), (1, 1, "front"), (1, 2, "right"), (1, 3, "back"), (2, 1, "bottom")];

/// Room above the picture for the top face's name, and each face's name over it, in the gap.
fn name_faces(out: &mut Layout, n: usize, cells: usize) {
    let n = n.max(1);
    let mut centres: Vec<[f64; 2]> = (0..cells).map(|i| out.centre(i)).collect();
    for p in &mut centres {
        p[1] += FACE_GAP;
    }
    out.height += FACE_GAP;
    for &(fr, fc, name) in &FACES {
        let mut xs = Vec::new();
        let mut top = f64::INFINITY;
        for (i, p) in centres.iter().enumerate() {
            let (r, c) = out.place(i);
            if (r / n, c / n) == (fr, fc) {
                xs.push(p[0]);
                top = top.min(p[1]);
            }
        }
        if xs.is_empty() {
            continue;
        }
        let x = xs.iter().sum::<f64>() / xs.len() as f64;
        out.captions.push(Caption { name: name.to_string(), at: [x, top - 0.5 - FACE_GAP / 2.0] });
    }
    out.centres = Some(centres);
}

/// The lines of a path, cycle or graph, each once (`a < b`), at most [`DRAWN_EDGES`].
fn edges(topology: &Topology) -> Vec<[usize; 2]> {
    let mut out = Vec::new();
    if matches!(topology, Topology::Cells(_)) {
        return out;
    }
    for a in 0..topology.cell_count() {
        topology.for_each_neighbor(a, |b| {
            if a < b && out.len() < DRAWN_EDGES {
                out.push([a, b]);
            }
        });
    }
    out
}

/// Centres for puzzles without a picture: a path in a line (turning back every twelve cells), a
/// cycle in a ring, unconnected cells in rows, a graph by stress majorisation.
fn automatic(topology: &Topology) -> Vec<[f64; 2]> {
    const ROW: usize = 12;
    let rows = |n: usize, width: usize, snake: bool| -> Vec<[f64; 2]> {
        (0..n)
            .map(|i| {
                let (r, mut c) = (i / width, i % width);
                if snake && r % 2 == 1 {
                    c = width - 1 - c;
                }
                [c as f64 * NODE_SPACING, r as f64 * NODE_SPACING]
            })
            .collect()
    };
    match topology {
        Topology::Path(n) => rows(*n, ROW, true),
        Topology::Cells(n) => rows(*n, 8, false),
        Topology::Cycle(n) => ring(*n),
        Topology::Edges { adjacency } if adjacency.len() <= STRESS_CELLS => stress(adjacency),
        other => {
            let n = other.cell_count();
            rows(n, (n as f64).sqrt().ceil().max(1.0) as usize, false)
        }
    }
}

/// `n` cells on a circle, the first at the top, clockwise, neighbours [`NODE_SPACING`] apart.
fn ring(n: usize) -> Vec<[f64; 2]> {
    if n <= 1 {
        return vec![[0.0, 0.0]; n];
    }
    let step = std::f64::consts::TAU / n as f64;
    let radius = (NODE_SPACING / 2.0 / (step / 2.0).sin()).max(NODE_SPACING / 2.0);
    (0..n)
        .map(|i| {
            let a = i as f64 * step - std::f64::consts::FRAC_PI_2;
            [radius * a.cos(), radius * a.sin()]
        })
        .collect()
}

/// Moves the centres so that the picture starts at 0 with half a cell of room, and returns its
/// width and height.
/// A designer's positions (`layout:`) as drawn: as given, unless they span more than
/// [`most_span`] cell widths across or down (`layout: [(0, 0), (1000000, 0)]` once made an SVG
/// 48 million pixels wide), then scaled down to that span, the shape kept.
fn bounded(points: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let low = |k: usize| points.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min);
    let high = |k: usize| points.iter().map(|p| p[k]).fold(f64::NEG_INFINITY, f64::max);
    let span = (high(0) - low(0)).max(high(1) - low(1));
    let most = most_span(points.len());
    if points.is_empty() || span <= most {
        return points.to_vec();
    }
    let scale = most / span;
    let (x0, y0) = (low(0), low(1));
    points.iter().map(|[x, y]| [(x - x0) * scale, (y - y0) * scale]).collect()
}

/// The widest (and tallest) a designer's drawing of `cells` cells is drawn, in cell widths: room
/// for them all in a row spaced by 1.5 (as the playground adds cells), and at least 100 (4,800
/// pixels in an SVG).
pub fn most_span(cells: usize) -> f64 {
    (1.5 * cells as f64).max(100.0)
}

fn fit(centres: &mut [[f64; 2]]) -> (f64, f64) {
    if centres.is_empty() {
        return (1.0, 1.0);
    }
    let min = |k: usize| centres.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min);
    let max = |k: usize| centres.iter().map(|p| p[k]).fold(f64::NEG_INFINITY, f64::max);
    let (x0, y0, x1, y1) = (min(0), min(1), max(0), max(1));
    for p in centres.iter_mut() {
        p[0] = p[0] - x0 + 0.5;
        p[1] = p[1] - y0 + 0.5;
    }
    (x1 - x0 + 1.0, y1 - y0 + 1.0)
}

/// The explicit buttons in a row (or rows of eight) under the cells, each with the cells it
/// changes; the picture grows to hold them.
fn place_buttons(puzzle: &Puzzle, out: &mut Layout) {
    if puzzle.button_count() > 0 && puzzle.cell_buttons().is_some() {
        out.buttons = (0..puzzle.button_count())
            .filter_map(|j| {
                let cell = puzzle.button_cell(j)?;
                Some(ButtonPlace {
                    name: button_name(puzzle, j),
                    centre: out.centre(cell),
                    cells: changed(puzzle, j),
                    cell: Some(cell),
                })
            })
            .collect();
        return;
    }
    const WIDTH: f64 = 1.8;
    const PER_ROW: usize = 8;
    let count = puzzle.button_count();
    let per_row = count.clamp(1, PER_ROW);
    let row_width = per_row as f64 * WIDTH;
    if row_width > out.width {
        // Centre the cells over the wider row of buttons.
        let shift = (row_width - out.width) / 2.0;
        let mut centres: Vec<[f64; 2]> = (0..puzzle.cell_count()).map(|i| out.centre(i)).collect();
        for p in &mut centres {
            p[0] += shift;
        }
        out.centres = Some(centres);
        out.width = row_width;
    }
    let top = out.height + 0.5;
    let left = (out.width - row_width) / 2.0;
    out.buttons = (0..count)
        .map(|j| {
            let (r, c) = (j / PER_ROW, j % PER_ROW);
            ButtonPlace {
                name: button_name(puzzle, j),
                centre: [left + (c as f64 + 0.5) * WIDTH, top + 0.5 + r as f64 * 1.1],
                cells: changed(puzzle, j),
                cell: None,
            }
        })
        .collect();
    out.height = top + count.div_ceil(PER_ROW) as f64 * 1.1 + 0.1;
}

/// A named button is drawn by its name, others as `button 3`.
fn button_name(puzzle: &Puzzle, j: usize) -> String {
    match puzzle.button_labels() {
        Some(_) => puzzle.button_name(j),
        None => format!("button {}", puzzle.button_name(j)),
    }
}

/// The cells button `j` changes, ascending, each once.
fn changed(puzzle: &Puzzle, j: usize) -> Vec<usize> {
    let mut cells: Vec<usize> = puzzle.effects(j).iter().map(|&(cell, _)| cell).collect();
    cells.dedup();
    cells
}

#[cfg(test)]
mod tests {
    use super::stress::distance;
    use super::*;

    fn of(source: &str) -> Layout {
        layout(&crate::parse_puzzle(source).expect("valid"))
    }

    /// Buttons named by `button_labels` are drawn by their names; others as `button 3`.
    #[test]
    fn named_buttons_are_drawn_by_their_names() {
        let source = "Puzzle(graph: Cells(2), modulus: 2, buttons: [[(0, 1)], [(1, 1)]]";
        let named = of(&format!("{source}, button_labels: [\"red lever\", \"blue lever\"])"));
        let names: Vec<&str> = named.buttons.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["red lever", "blue lever"]);
        let plain = of(&format!("{source})"));
        let names: Vec<&str> = plain.buttons.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["button 0", "button 1"]);
    }

    fn shipped(name: &str) -> Layout {
        let path = format!("{}/../../puzzles/{name}", env!("CARGO_MANIFEST_DIR"));
        of(&std::fs::read_to_string(path).expect("shipped"))
    }

    /// No two cells closer than `apart`, and every centre inside the picture.
    fn assert_apart(l: &Layout, cells: usize, apart: f64) {
        for a in 0..cells {
            let p = l.centre(a);
            assert!(p[0] >= 0.5 - 1e-9 && p[0] <= l.width - 0.5 + 1e-9, "cell {a} at {p:?} in {}", l.width);
            assert!(p[1] >= 0.5 - 1e-9 && p[1] <= l.height - 0.5 + 1e-9, "cell {a} at {p:?} in {}", l.height);
            for b in a + 1..cells {
                let d = distance(p, l.centre(b));
                assert!(d >= apart, "cells {a} and {b} are {d} apart");
            }
        }
    }

    #[test]
    fn a_path_is_a_line_of_circles_with_its_edges() {
        let l = shipped("octopus.ron");
        assert_eq!(l.shape, Shape::Circle);
        assert_eq!(l.edges, vec![[0, 1], [1, 2], [2, 3]]);
        let ys: Vec<f64> = (0..4).map(|i| l.centre(i)[1]).collect();
        assert!(ys.iter().all(|&y| y == ys[0]), "{ys:?}");
        let xs: Vec<f64> = (0..4).map(|i| l.centre(i)[0]).collect();
        assert_eq!(xs, vec![0.5, 2.0, 3.5, 5.0]);
        assert!(l.labels && l.movable && l.buttons.is_empty());
        assert_eq!((l.width, l.height), (5.5, 1.45));
        assert_apart(&l, 4, NODE_SPACING);
    }

    #[test]
    fn a_cycle_is_a_ring_that_closes() {
        let l = of("Puzzle(graph: Cycle(8), modulus: 2)");
        assert_eq!(l.edges.len(), 8);
        assert!(l.edges.contains(&[0, 7]), "the wrap-around edge: {:?}", l.edges);
        let centre = [l.width / 2.0, l.height / 2.0];
        let radii: Vec<f64> = (0..8).map(|i| distance(l.centre(i), centre)).collect();
        assert!(radii.iter().all(|r| (r - radii[0]).abs() < 1e-9 && *r > 1.0), "{radii:?}");
        // Neighbours (the wrap-around pair too) equally far apart.
        for [a, b] in &l.edges {
            assert!((distance(l.centre(*a), l.centre(*b)) - NODE_SPACING).abs() < 1e-9);
        }
        assert_apart(&l, 8, NODE_SPACING - 1e-9);
    }

    #[test]
    fn a_graph_is_laid_out_the_same_every_time_without_overlaps() {
        let l = shipped("sunflowers.ron");
        assert_eq!(l, shipped("sunflowers.ron"));
        assert_eq!(l.edges.len(), 7);
        assert!(l.labels);
        assert_apart(&l, 7, 0.8 * NODE_SPACING - 1e-9);
        // Not in a line: some three cells make a triangle of real area.
        let p: Vec<[f64; 2]> = (0..7).map(|i| l.centre(i)).collect();
        let area = |a: [f64; 2], b: [f64; 2], c: [f64; 2]| {
            ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])).abs() / 2.0
        };
        let most = (0..7)
            .flat_map(|a| (0..7).flat_map(move |b| (0..7).map(move |c| (a, b, c))))
            .map(|(a, b, c)| area(p[a], p[b], p[c]))
            .fold(0.0, f64::max);
        assert!(most > 1.0, "largest triangle {most}");
        // Edges are about NODE_SPACING long; cells two steps apart are further than neighbours.
        for [a, b] in &l.edges {
            let d = distance(p[*a], p[*b]);
            assert!(d > 0.8 * NODE_SPACING && d < 2.0 * NODE_SPACING, "edge {a}-{b}: {d}");
        }
        // Bigger graphs too: a 10-cell wheel and a graph in two parts.
        let spokes: Vec<String> = (1..10).map(|i| format!("(0, {i}), ({i}, {})", i % 9 + 1)).collect();
        let wheel =
            of(&format!("Puzzle(graph: Edges(cells: 10, edges: [{}]), modulus: 2)", spokes.join(", ")));
        assert_apart(&wheel, 10, 0.8 * NODE_SPACING - 1e-9);
        let parts = of("Puzzle(graph: Edges(cells: 6, edges: [(0, 1), (1, 2), (3, 4), (4, 5)]), modulus: 2)");
        assert_apart(&parts, 6, 0.8 * NODE_SPACING - 1e-9);
        // A random graph as big as is laid out: cells apart, and a picture of sensible size.
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(3);
        let n = STRESS_CELLS;
        let mut edges: Vec<String> = (1..n).map(|i| format!("({}, {i})", rng.random_range(0..i))).collect();
        edges.extend((0..n / 2).map(|_| {
            let a = rng.random_range(0..n - 1);
            format!("({a}, {})", rng.random_range(a + 1..n))
        }));
        edges.sort();
        edges.dedup();
        let random =
            of(&format!("Puzzle(graph: Edges(cells: {n}, edges: [{}]), modulus: 2)", edges.join(", ")));
        assert_apart(&random, n, 0.8 * NODE_SPACING - 1e-9);
        let area = random.width * random.height;
        assert!(area < 12.0 * n as f64 * NODE_SPACING * NODE_SPACING, "{} × {}", random.width, random.height);
    }

    #[test]
    fn pictures_keep_their_places() {
        let grid = shipped("lightsout-5x5.ron");
        assert_eq!((grid.rows, grid.cols, grid.shape), (5, 5, Shape::Square));
        assert!(grid.centres.is_none() && grid.positions.is_none() && grid.edges.is_empty());
        assert_eq!(grid.centre(7), [2.5, 1.5]);
        let hex = of("Puzzle(graph: Hex(rows: 3, cols: 3), modulus: 2)");
        assert_eq!((hex.shape, hex.width), (Shape::Hexagon, 3.5));
        assert_eq!(hex.centre(3), [1.0, 1.5]);
        // The cube's faces apart: cells of different faces further than a cell's width.
        let cube = of("Puzzle(graph: Cube(2), modulus: 2)");
        assert!(cube.centres.is_some());
        let cells = 24;
        assert_apart(&cube, cells, 1.0 - 1e-9);
        let gaps = (0..cells)
            .flat_map(|a| (0..cells).map(move |b| (a, b)))
            .filter(|&(a, b)| {
                let d = distance(cube.centre(a), cube.centre(b));
                (d - (1.0 + FACE_GAP)).abs() < 1e-9
            })
            .count();
        assert!(gaps > 0, "faces touch");
        // A big board: no per-cell list.
        let big = layout(
            &crate::model::Puzzle::builder(Topology::Grid {
                rows: 1000,
                cols: 1000,
                wrap: false,
                neighborhood: crate::model::Neighborhood::Cross,
            })
            .modulus(2)
            .build()
            .expect("valid"),
        );
        assert!(big.centres.is_none() && big.positions.is_none() && big.edges.is_empty());
    }

    #[test]
    fn buttons_as_many_as_the_cells_are_drawn_on_them() {
        let l = shipped("merlin.ron");
        let cells: Vec<Option<usize>> = l.buttons.iter().map(|b| b.cell).collect();
        assert_eq!(cells, (0..9).map(Some).collect::<Vec<_>>());
        for (j, b) in l.buttons.iter().enumerate() {
            assert_eq!(b.centre, l.centre(j));
        }
        // The top edge's button changes the top row; the picture keeps its 3 × 3 size.
        assert_eq!(l.buttons[1].cells, vec![0, 1, 2]);
        assert_eq!((l.width, l.height), (3.0, 3.0));
    }

    #[test]
    fn button_at_places_buttons_on_the_cells_it_names() {
        let l = of(
            "Puzzle(graph: Grid(rows: 2, cols: 2), modulus: 2, buttons: [[(0, 1)], [(2, 1)]], button_at: [3, 0])",
        );
        let cells: Vec<Option<usize>> = l.buttons.iter().map(|b| b.cell).collect();
        assert_eq!(cells, [Some(3), Some(0)]);
        assert_eq!((l.buttons[0].centre, l.buttons[1].centre), (l.centre(3), l.centre(0)));
        assert_eq!((l.width, l.height), (2.0, 2.0));
    }

    #[test]
    fn a_torus_wraps_and_the_cube_names_its_faces() {
        assert!(shipped("torus-5x5.ron").wrap);
        assert!(!shipped("lightsout-5x5.ron").wrap);
        let cube = of("Puzzle(graph: Cube(2), modulus: 2)");
        let names: Vec<&str> = cube.captions.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["top", "left", "front", "right", "back", "bottom"]);
        // Each name above its face, inside the picture.
        for c in &cube.captions {
            assert!(c.at[1] > 0.0 && c.at[0] > 0.0 && c.at[0] < cube.width, "{c:?}");
        }
        let top = (0..24).map(|i| cube.centre(i)[1]).fold(f64::INFINITY, f64::min);
        assert!(cube.captions[0].at[1] < top - 0.5, "{:?} {top}", cube.captions[0]);
    }

    #[test]
    fn explicit_buttons_are_placed_with_their_cells() {
        let l = shipped("two-levers.ron");
        assert_eq!(l.buttons.len(), 2);
        assert_eq!(l.buttons[0].cells, vec![0, 1]);
        assert_eq!(l.buttons[1].cells, vec![1, 2]);
        assert_eq!(l.buttons[0].name, "left lever");
        assert!(l.buttons.iter().all(|b| b.cell.is_none()));
        for b in &l.buttons {
            assert!(b.centre[1] > 1.0 && b.centre[1] < l.height && b.centre[0] < l.width, "{b:?}");
        }
        assert!(l.buttons[0].centre[0] < l.buttons[1].centre[0]);
        assert!(shipped("octopus.ron").buttons.is_empty());
    }

    #[test]
    fn a_files_layout_places_the_cells() {
        let l = of("Puzzle(graph: Path(3), modulus: 2, layout: [(0, 0), (2.5, 1), (5, 0)])");
        assert_eq!(l.centres, Some(vec![[0.5, 0.5], [3.0, 1.5], [5.5, 0.5]]));
        assert_eq!((l.width, l.height), (6.0, 2.0));
        assert!(l.movable);
    }
}
