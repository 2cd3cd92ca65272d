//! What every test module shares: puzzles from text and from `puzzles/`, the binary, scratch
//! directories, random puzzles with explicit buttons, and the odometer that visits every press
//! vector.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use modsolve::model::{Phases, Puzzle, Topology};
use modsolve::parse_puzzle;
use rand::RngExt;
use rand::rngs::StdRng;

/// A puzzle from its text; a test's own puzzle text is always valid.
pub(crate) fn load(source: &str) -> Puzzle {
    parse_puzzle(source).unwrap_or_else(|e| panic!("{e}: {source}"))
}

/// The path of a shipped puzzle, `puzzles/NAME`.
pub(crate) fn shipped_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles").join(name)
}

/// A shipped puzzle.
pub(crate) fn shipped(name: &str) -> Puzzle {
    load(&std::fs::read_to_string(shipped_path(name)).expect("a shipped puzzle"))
}

/// Every shipped puzzle file, sorted.
pub(crate) fn shipped_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles"))
        .expect("puzzles/ is readable")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    files
}

/// The `modsolve` binary, ready for arguments.
pub(crate) fn modsolve() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("modsolve").expect("the modsolve binary is built")
}

/// A scratch directory, removed when dropped.
pub(crate) struct Scratch(tempfile::TempDir);

impl Scratch {
    /// A new, empty scratch directory.
    pub(crate) fn new() -> Self {
        Scratch(tempfile::Builder::new().prefix("modsolve-test-").tempdir().expect("a scratch directory"))
    }

    /// The directory.
    pub(crate) fn path(&self) -> &Path {
        self.0.path()
    }

    /// Writes `text` to the file `name` in the directory; its path.
    pub(crate) fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.path().join(name);
        std::fs::write(&path, text).expect("a scratch file");
        path
    }
}

/// The shape of a random puzzle with explicit buttons on unconnected cells.
#[derive(Clone, Debug)]
pub(crate) struct Shape {
    pub(crate) cells: RangeInclusive<usize>,
    pub(crate) buttons: RangeInclusive<usize>,
    pub(crate) moduli: RangeInclusive<u64>,
    /// What one press (or one phase of one) adds to a cell it touches.
    pub(crate) amounts: RangeInclusive<i64>,
    /// How often every cell has the same modulus.
    pub(crate) equal_moduli: f64,
    /// How often the buttons have press limits (0 to 6 each).
    pub(crate) limits: f64,
    /// Phases per press: 1 is plain presses, more makes staged presses.
    pub(crate) phases: RangeInclusive<usize>,
}

impl Default for Shape {
    fn default() -> Self {
        Shape {
            cells: 1..=4,
            buttons: 1..=4,
            moduli: 2..=8,
            amounts: -9..=9,
            equal_moduli: 0.0,
            limits: 0.0,
            phases: 1..=1,
        }
    }
}

/// Effects for `buttons` buttons on `cells` cells: each touches each cell with probability 0.6.
pub(crate) fn random_effects(
    rng: &mut StdRng,
    cells: usize,
    buttons: usize,
    amounts: &RangeInclusive<i64>,
) -> Vec<Vec<(usize, i64)>> {
    let mut effect = || {
        let mut out = Vec::new();
        for i in 0..cells {
            if rng.random_bool(0.6) {
                out.push((i, rng.random_range(amounts.clone())));
            }
        }
        out
    };
    (0..buttons).map(|_| effect()).collect()
}

/// A random puzzle of this shape, with a random start and target.
pub(crate) fn random_puzzle(rng: &mut StdRng, shape: &Shape) -> Puzzle {
    let cells = rng.random_range(shape.cells.clone());
    let buttons = rng.random_range(shape.buttons.clone());
    let equal = rng.random_bool(shape.equal_moduli);
    let first = rng.random_range(shape.moduli.clone());
    let moduli: Vec<u64> =
        (0..cells).map(|_| if equal { first } else { rng.random_range(shape.moduli.clone()) }).collect();
    let phase_count = rng.random_range(shape.phases.clone());
    let mut builder = Puzzle::builder(Topology::Cells(cells));
    if phase_count == 1 {
        builder = builder.buttons(random_effects(rng, cells, buttons, &shape.amounts));
    } else {
        let phases = (0..buttons).map(|_| random_effects(rng, cells, phase_count, &shape.amounts)).collect();
        builder = builder.phases(Phases::Explicit(phases));
    }
    let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
    let target: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
    if rng.random_bool(shape.limits) {
        builder = builder.max_presses((0..buttons).map(|_| rng.random_range(0..=6u64)).collect());
    }
    builder.moduli(moduli).start(start).target(target).build().expect("a valid random puzzle")
}

/// Visits every vector `x` with `0 <= x[j] < radices[j]`, in mixed-radix order (`x[0]` fastest).
pub(crate) fn odometer(radices: &[u64], mut visit: impl FnMut(&[u64])) {
    if radices.contains(&0) {
        return;
    }
    let mut x = vec![0u64; radices.len()];
    loop {
        visit(&x);
        let mut j = 0;
        loop {
            if j == x.len() {
                return;
            }
            x[j] += 1;
            if x[j] < radices[j] {
                break;
            }
            x[j] = 0;
            j += 1;
        }
    }
}

#[test]
fn the_odometer_visits_every_vector_once() {
    let mut seen = std::collections::HashSet::new();
    odometer(&[2, 3, 1, 4], |x| assert!(seen.insert(x.to_vec())));
    assert_eq!(seen.len(), 24);
    let mut visits = 0;
    odometer(&[], |_| visits += 1);
    assert_eq!(visits, 1, "the empty vector");
}
