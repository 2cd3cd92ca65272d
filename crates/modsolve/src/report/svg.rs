//! The board as a picture: where each cell is drawn ([`layout`]), the colours of the playground
//! ([`PALETTE`]) and the SVG writer behind `modsolve FILE --svg` and the server's `/api/svg`
//! ([`board_svg`]). The playground's page draws its boards with the same layout and the same
//! palette (the server hands both over), so the page and the SVG files look alike.

use std::fmt::Write as _;

use num_bigint::BigUint;
use num_traits::Zero;
use serde::Serialize;

use crate::model::Puzzle;

/// The colours of a drawn board, shared by the SVG writer and the playground's page.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Palette {
    /// The page or picture behind the board.
    pub background: &'static str,
    /// A cell at 0.
    pub low: &'static str,
    /// A cell at its modulus less one (values between are mixed from `low` to `high`).
    pub high: &'static str,
    /// A cell's value written on a dark cell.
    pub text_on_low: &'static str,
    /// A cell's value written on a light cell.
    pub text_on_high: &'static str,
    /// The outline of a cell whose value is not its target's.
    pub off_target: &'static str,
    /// The badge of a plan's press count.
    pub press: &'static str,
    /// The press count written on its badge.
    pub press_text: &'static str,
    /// The ring around the cell a hint says to press.
    pub hint: &'static str,
}

/// The playground's colours.
pub const PALETTE: Palette = Palette {
    background: "#0f172a",
    low: "#1e293b",
    high: "#facc15",
    text_on_low: "#e2e8f0",
    text_on_high: "#1e293b",
    off_target: "#f43f5e",
    press: "#2563eb",
    press_text: "#ffffff",
    hint: "#22c55e",
};

/// Boards with more cells than this are drawn without values or press counts written on them.
pub const TEXT_CELL_LIMIT: usize = 4096;

/// Puzzles whose cells are not a picture (paths, cycles, graphs) are drawn in rows of this many.
pub const ROW_CELLS: usize = 8;

/// Where each cell is drawn: a picture of `rows × cols` places, hex rows shifted half a cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Layout {
    /// Rows of the picture.
    pub rows: usize,
    /// Columns of the picture.
    pub cols: usize,
    /// Odd rows drawn half a cell to the right.
    pub hex: bool,
    /// The `[row, col]` of every cell; `None` when cell `i` is at `(i / cols, i % cols)` (a
    /// plain grid, or cells drawn in rows), so big boards carry no list.
    pub positions: Option<Vec<[usize; 2]>>,
}

impl Layout {
    /// The `(row, col)` of cell `i`.
    pub fn place(&self, i: usize) -> (usize, usize) {
        match &self.positions {
            Some(positions) => (positions[i][0], positions[i][1]),
            None => (i / self.cols.max(1), i % self.cols.max(1)),
        }
    }
}

/// Where the cells of `puzzle` are drawn: its picture (grids, masks, hex boards, the cube's
/// net), or rows of [`ROW_CELLS`] cells for puzzles without one.
pub fn layout(puzzle: &Puzzle) -> Layout {
    let topology = puzzle.topology();
    let cells = puzzle.cell_count();
    match topology.picture_size() {
        Some((rows, cols)) if topology.grid_shape().is_some() => {
            Layout { rows, cols, hex: false, positions: None }
        }
        Some((rows, cols)) => Layout {
            rows,
            cols,
            hex: topology.is_hex(),
            positions: Some(
                (0..cells).map(|i| topology.position(i).map_or([0, i], |(r, c)| [r, c])).collect(),
            ),
        },
        None => {
            let cols = cells.clamp(1, ROW_CELLS);
            Layout { rows: cells.div_ceil(cols).max(1), cols, hex: false, positions: None }
        }
    }
}

/// `low` mixed towards `high` by `value / (modulus - 1)`, as `#rrggbb`.
pub fn cell_colour(value: u64, modulus: u64) -> String {
    let parse = |c: &str| -> [f64; 3] {
        let n = u32::from_str_radix(&c[1..], 16).unwrap_or(0);
        [f64::from((n >> 16) & 255), f64::from((n >> 8) & 255), f64::from(n & 255)]
    };
    let (a, b) = (parse(PALETTE.low), parse(PALETTE.high));
    let t = if modulus <= 1 { 0.0 } else { value.min(modulus - 1) as f64 / (modulus - 1) as f64 };
    let mix = |i: usize| (a[i] + (b[i] - a[i]) * t).round().clamp(0.0, 255.0) as u8;
    format!("#{:02x}{:02x}{:02x}", mix(0), mix(1), mix(2))
}

/// Whether text on a cell of this value is written in the dark colour.
fn light(value: u64, modulus: u64) -> bool {
    modulus > 1 && value.min(modulus - 1) * 2 >= modulus - 1 && value > 0
}

/// The board of `puzzle` at `state` as an SVG document: each cell coloured by its value (from
/// [`PALETTE`]'s `low` to `high`), its value written on it, cells off their target outlined,
/// and, with a plan, each button's press count in a badge on its cell (for puzzles whose buttons
/// are their cells; otherwise the plan is listed under the board by button name).
pub fn board_svg(puzzle: &Puzzle, state: &[u64], plan: Option<&[BigUint]>) -> String {
    let layout = layout(puzzle);
    let cells = puzzle.cell_count();
    let text = cells <= TEXT_CELL_LIMIT;
    let size: f64 = if text {
        40.0
    } else if cells <= 250_000 {
        4.0
    } else {
        1.0
    };
    let gap = if text { 4.0 } else { 0.0 };
    let margin = if text { 12.0 } else { 2.0 };
    let listed: Vec<String> = match plan {
        Some(plan) if !puzzle.buttons_are_cells() => plan
            .iter()
            .enumerate()
            .filter(|(_, x)| !x.is_zero())
            .map(|(j, x)| format!("{} ×{x}", puzzle.button_name(j)))
            .collect(),
        _ => Vec::new(),
    };
    let half = if layout.hex { size / 2.0 } else { 0.0 };
    let width = margin * 2.0 + layout.cols as f64 * size + half;
    let list_height = if listed.is_empty() { 0.0 } else { 24.0 };
    let height = margin * 2.0 + layout.rows as f64 * size + list_height;
    let mut out = String::with_capacity(cells * if text { 200 } else { 60 } + 512);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="system-ui, sans-serif">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="{}"/>"#, PALETTE.background);
    let moduli = puzzle.moduli();
    let target = puzzle.target();
    let font = size * 0.4;
    for i in 0..cells {
        let (r, c) = layout.place(i);
        let x = margin + c as f64 * size + if layout.hex && r % 2 == 1 { half } else { 0.0 };
        let y = margin + r as f64 * size;
        let (value, modulus) = (state.get(i).copied().unwrap_or(0), moduli[i]);
        let inner = size - gap;
        let off = state.get(i).is_some_and(|&v| v != target[i]);
        let stroke = if off && text {
            format!(r#" stroke="{}" stroke-width="2""#, PALETTE.off_target)
        } else {
            String::new()
        };
        let radius = if text { 6.0 } else { 0.0 };
        let _ = writeln!(
            out,
            r#"<rect x="{x}" y="{y}" width="{inner}" height="{inner}" rx="{radius}" fill="{}"{stroke}/>"#,
            cell_colour(value, modulus)
        );
        if !text {
            continue;
        }
        let ink = if light(value, modulus) { PALETTE.text_on_high } else { PALETTE.text_on_low };
        let (cx, cy) = (x + inner / 2.0, y + inner / 2.0);
        let _ = writeln!(
            out,
            r#"<text x="{cx}" y="{cy}" font-size="{font}" fill="{ink}" text-anchor="middle" dominant-baseline="central">{value}</text>"#
        );
        if let Some(plan) = plan.filter(|_| puzzle.buttons_are_cells())
            && let Some(count) = plan.get(i).filter(|x| !x.is_zero())
        {
            let (bx, by) = (x + inner - 9.0, y + 9.0);
            let _ = writeln!(
                out,
                r#"<circle cx="{bx}" cy="{by}" r="9" fill="{}"/><text x="{bx}" y="{by}" font-size="11" fill="{}" text-anchor="middle" dominant-baseline="central">{count}</text>"#,
                PALETTE.press, PALETTE.press_text
            );
        }
    }
    if !text && let Some(plan) = plan.filter(|_| puzzle.buttons_are_cells()) {
        // Big boards: a dot of the press colour on each pressed cell.
        for (i, count) in plan.iter().enumerate().take(cells) {
            if count.is_zero() {
                continue;
            }
            let (r, c) = layout.place(i);
            let x = margin + c as f64 * size + if layout.hex && r % 2 == 1 { half } else { 0.0 };
            let y = margin + r as f64 * size;
            let _ = writeln!(
                out,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
                x + size / 4.0,
                y + size / 4.0,
                size / 2.0,
                size / 2.0,
                PALETTE.press
            );
        }
    }
    if !listed.is_empty() {
        let y = height - margin - 6.0;
        let _ = writeln!(
            out,
            r#"<text x="{margin}" y="{y}" font-size="14" fill="{}">{}</text>"#,
            PALETTE.text_on_low,
            escape(&format!("plan: {}", listed.join(", ")))
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Text escaped for XML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_run_from_low_to_high() {
        assert_eq!(cell_colour(0, 2), PALETTE.low);
        assert_eq!(cell_colour(1, 2), PALETTE.high);
        assert_eq!(cell_colour(6, 7), PALETTE.high);
        assert_ne!(cell_colour(3, 7), PALETTE.low);
    }

    #[test]
    fn octopus_svg_has_cells_and_badges() {
        let puzzle = crate::parse_puzzle(
            "Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1), start: [2, 4, 5, 3])",
        )
        .unwrap();
        let plan: Vec<BigUint> = [9u32, 8, 3, 9].iter().map(|&x| x.into()).collect();
        let svg = board_svg(&puzzle, &puzzle.start().to_vec(), Some(&plan));
        assert!(svg.starts_with("<svg"));
        assert_eq!(svg.matches("<rect x=").count(), 4);
        assert_eq!(svg.matches("<circle").count(), 4);
        assert!(svg.contains(">9</text>"));
    }
}
