//! The symmetries of a puzzle: the rotations and reflections of its picture that map it onto
//! itself. Generation keeps one start of each class; the fewest-presses search skips images.

use super::{Buttons, Puzzle, Topology};

/// The permutations of cells that map the template onto itself (always the identity): the
/// reflections and rotations of its picture that map cells to cells, keep every modulus and
/// target value, and map every button's effect onto the image button's effect. Plain grids
/// (`Cross`, `King`, `Knight`, wrapped or not) are symmetric under all of them; boards (masks,
/// stencils, hex, the cube) are checked press by press, so only true symmetries are kept.
pub fn symmetries(template: &Puzzle) -> Vec<Vec<usize>> {
    let identity: Vec<usize> = (0..template.cell_count()).collect();
    let (Some((rows, cols)), Buttons::Graph { .. }) = (template.topology.picture_size(), &template.buttons)
    else {
        return vec![identity];
    };
    let topology = &template.topology;
    let board = matches!(topology, Topology::Board(_));
    // (r, c, rows, cols) → image; the last four only for square pictures.
    type Map = fn(usize, usize, usize, usize) -> (usize, usize);
    let all: [Map; 7] = [
        |r, c, _, cols| (r, cols - 1 - c),
        |r, c, rows, _| (rows - 1 - r, c),
        |r, c, rows, cols| (rows - 1 - r, cols - 1 - c),
        |r, c, _, _| (c, r),
        |r, c, rows, cols| (cols - 1 - c, rows - 1 - r),
        |r, c, rows, _| (c, rows - 1 - r),
        |r, c, _, cols| (cols - 1 - c, r),
    ];
    let maps = if rows == cols { &all[..] } else { &all[..3] };
    let mut out = vec![identity];
    for map in maps {
        let perm: Option<Vec<usize>> = (0..template.cell_count())
            .map(|i| {
                let (r, c) = topology.position(i)?;
                let (r, c) = map(r, c, rows, cols);
                topology.cell_at(r, c)
            })
            .collect();
        let Some(perm) = perm else { continue };
        let keeps = (0..perm.len()).all(|i| {
            template.moduli[perm[i]] == template.moduli[i] && template.target[perm[i]] == template.target[i]
        });
        if keeps && (!board || maps_presses(template, &perm)) {
            out.push(perm);
        }
    }
    out
}

/// Whether pressing `perm[j]` does to `perm` of the cells what pressing `j` does to the cells
/// (with equal weights for the pressed cells and their neighbours).
fn maps_presses(template: &Puzzle, perm: &[usize]) -> bool {
    (0..template.button_count()).all(|j| {
        let mut image: Vec<(usize, u64)> =
            template.effects(j).into_iter().map(|(i, a)| (perm[i], a)).collect();
        image.sort_unstable();
        image == template.effects(perm[j])
    })
}

/// The canonical form of a start under the symmetries: the smallest image.
pub fn canonical(start: &[u64], symmetries: &[Vec<usize>]) -> Vec<u64> {
    symmetries
        .iter()
        .map(|perm| {
            let mut image = vec![0u64; start.len()];
            for (i, &j) in perm.iter().enumerate() {
                image[j] = start[i];
            }
            image
        })
        .min()
        .expect("the identity is always there")
}
