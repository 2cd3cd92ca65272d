//! The board as a picture: where each cell is drawn ([`layout`], from [`super::layout`]), the colours of the playground
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
    /// The lines between the cells of paths, cycles and graphs.
    pub edge: &'static str,
    /// An explicit button's face.
    pub button: &'static str,
    /// A cell's label, and the small figures of the editor (target, modulus).
    pub label: &'static str,
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
    edge: "#64748b",
    button: "#334155",
    label: "#94a3b8",
};

#[doc(hidden)]
pub use super::layout::layout;
pub use super::layout::{ButtonPlace, Caption, Layout, Shape, TEXT_CELL_LIMIT};

/// `low` mixed towards `high` by `value / (modulus - 1)`, as `#rrggbb`.
#[doc(hidden)]
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

/// Pixels a cell width in an SVG of a board small enough for shapes.
const UNIT: f64 = 48.0;

/// The board of `puzzle` at `state` as an SVG document, drawn from its [`layout`]: each cell a
/// square, hexagon or circle coloured by its value (from [`PALETTE`]'s `low` to `high`) with its
/// value and label written on it, the lines of paths, cycles and graphs, cells off their target
/// outlined, explicit buttons named under the cells with dashed lines to the cells they change
/// (or, as many as the cells, on their cells), the cube's face names, and, with a plan, each
/// button's press count in a badge. Boards of more than
/// [`TEXT_CELL_LIMIT`] cells are drawn a small square a cell, pressed cells marked.
///
/// ```
/// let lights_out = modsolve::parse_puzzle("Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2, target: All(1))")?;
/// let presses = modsolve::solve(&lights_out)?.presses.expect("solvable");
/// let svg = modsolve::report::svg::board_svg(&lights_out, lights_out.start().to_vec().as_slice(), Some(&presses));
/// assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn board_svg(puzzle: &Puzzle, state: &[u64], plan: Option<&[BigUint]>) -> String {
    let layout = layout(puzzle);
    if puzzle.cell_count() > TEXT_CELL_LIMIT {
        return pixels_svg(puzzle, &layout, state, plan);
    }
    let cells = puzzle.cell_count();
    let margin = 12.0;
    let size = UNIT;
    // Buttons drawn on the picture carry their presses; others are listed under it.
    let listed = listed_presses(puzzle, plan.filter(|_| layout.buttons.is_empty()));
    // Whole pixels: the picture's size as a person would write it.
    let width = (margin * 2.0 + layout.width * size).ceil();
    let list_height = if listed.is_empty() { 0.0 } else { 24.0 };
    let height = (margin * 2.0 + layout.height * size + list_height).ceil();
    let at = |p: [f64; 2]| (margin + p[0] * size, margin + p[1] * size);
    let mut out = String::with_capacity(cells * 300 + 512);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="system-ui, sans-serif">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="{}"/>"#, PALETTE.background);
    draw_lines(&mut out, &layout, &at);
    draw_cells(&mut out, puzzle, &layout, (state, plan), &at);
    draw_buttons(&mut out, puzzle, &layout, plan, &at);
    finish(out, &listed, height, margin)
}

/// The lines of the picture: its edges, and dashed lines from each button drawn apart to the
/// cells it changes (the cells are listed under every such button too). `at` places a point.
fn draw_lines(out: &mut String, layout: &Layout, at: &impl Fn([f64; 2]) -> (f64, f64)) {
    for [a, b] in &layout.edges {
        let ((x1, y1), (x2, y2)) = (at(layout.centre(*a)), at(layout.centre(*b)));
        let _ = writeln!(
            out,
            r#"<line class="edge" x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{}" stroke-width="3"/>"#,
            PALETTE.edge
        );
    }
    // Lines from each button drawn apart to the cells it changes; the cells are listed under
    // every such button too.
    for button in layout.buttons.iter().filter(|b| b.cell.is_none()) {
        let (bx, by) = at(button.centre);
        for &cell in &button.cells {
            let (cx, cy) = at(layout.centre(cell));
            let _ = writeln!(
                out,
                r#"<line class="effect" x1="{bx:.1}" y1="{by:.1}" x2="{cx:.1}" y2="{cy:.1}" stroke="{}" stroke-width="1.5" stroke-dasharray="4 3" opacity="0.6"/>"#,
                PALETTE.edge
            );
        }
    }
}

/// The cells in their shapes, each with its value, its label (under a circle), an outline when
/// it is off its target and, with a plan, the presses of the button drawn on it.
fn draw_cells(
    out: &mut String,
    puzzle: &Puzzle,
    layout: &Layout,
    (state, plan): (&[u64], Option<&[BigUint]>),
    at: &impl Fn([f64; 2]) -> (f64, f64),
) {
    let size = UNIT;
    let cells = puzzle.cell_count();
    let moduli = puzzle.moduli();
    let target = puzzle.target();
    let labels = puzzle.labels().filter(|_| layout.labels);
    let on_cells = puzzle.cell_buttons();
    for i in 0..cells {
        let (cx, cy) = at(layout.centre(i));
        let (value, modulus) = (state.get(i).copied().unwrap_or(0), moduli[i]);
        let off = state.get(i).is_some_and(|&v| v != target[i]);
        let stroke = if off {
            format!(r#" stroke="{}" stroke-width="2.5""#, PALETTE.off_target)
        } else {
            String::new()
        };
        let fill = cell_colour(value, modulus);
        let half = cell_shape(out, layout.shape, (cx, cy), &fill, &stroke);
        let ink = if light(value, modulus) { PALETTE.text_on_high } else { PALETTE.text_on_low };
        let _ = writeln!(
            out,
            r#"<text class="value" x="{cx:.1}" y="{cy:.1}" font-size="{:.0}" fill="{ink}" text-anchor="middle" dominant-baseline="central">{value}</text>"#,
            size * 0.36
        );
        if let Some(labels) = labels {
            // Under a circle, with a halo of the background where an edge passes.
            let (ly, colour, halo) = match layout.shape {
                Shape::Circle => (
                    cy + half + size * 0.2,
                    PALETTE.label,
                    format!(r#" stroke="{}" stroke-width="4" paint-order="stroke""#, PALETTE.background),
                ),
                _ => (cy + half - size * 0.12, ink, String::new()),
            };
            let _ = writeln!(
                out,
                r#"<text class="label" x="{cx:.1}" y="{ly:.1}" font-size="{:.0}" fill="{colour}"{halo} text-anchor="middle" dominant-baseline="central">{}</text>"#,
                size * 0.24,
                escape(&labels[i])
            );
        }
        if let Some(plan) = plan
            && let Some(j) = on_cells.as_ref().and_then(|c| c.get(i).copied().flatten())
            && let Some(count) = plan.get(j).filter(|x| !x.is_zero())
        {
            let d = half * std::f64::consts::FRAC_1_SQRT_2;
            badge(out, cx + d.max(half - 9.0), cy - d.max(half - 9.0), count);
        }
    }
}

/// A cell's shape centred at (`cx`, `cy`), filled with `fill` and outlined by `stroke`: its
/// half height (where the label and the badge go).
fn cell_shape(out: &mut String, shape: Shape, (cx, cy): (f64, f64), fill: &str, stroke: &str) -> f64 {
    let size = UNIT;
    match shape {
        Shape::Square => {
            let inner = size * 0.9;
            let _ = writeln!(
                out,
                r#"<rect class="cell" x="{:.1}" y="{:.1}" width="{inner:.1}" height="{inner:.1}" rx="6" fill="{fill}"{stroke}/>"#,
                cx - inner / 2.0,
                cy - inner / 2.0
            );
            inner / 2.0
        }
        Shape::Hexagon => {
            let r = size * 0.46 / (std::f64::consts::PI / 6.0).cos();
            let points: Vec<String> = (0..6)
                .map(|k| {
                    let a = (k as f64 * 60.0 - 90.0).to_radians();
                    format!("{:.1},{:.1}", cx + r * a.cos(), cy + r * a.sin())
                })
                .collect();
            let _ = writeln!(
                out,
                r#"<polygon class="cell" points="{}" fill="{fill}"{stroke}/>"#,
                points.join(" ")
            );
            size * 0.46
        }
        Shape::Circle => {
            let r = size * 0.4;
            let _ = writeln!(
                out,
                r#"<circle class="cell" cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}"{stroke}/>"#
            );
            r
        }
    }
}

/// A press count in a badge centred at (`x`, `y`).
fn badge(out: &mut String, x: f64, y: f64, count: &BigUint) {
    let _ = writeln!(
        out,
        r#"<circle class="badge" cx="{x:.1}" cy="{y:.1}" r="9" fill="{}"/><text x="{x:.1}" y="{y:.1}" font-size="11" fill="{}" text-anchor="middle" dominant-baseline="central">{count}</text>"#,
        PALETTE.press, PALETTE.press_text
    );
}

/// The cube's face names, and the buttons drawn apart: each named in a box, the cells it
/// changes under it, and, with a plan, its presses in a badge.
fn draw_buttons(
    out: &mut String,
    puzzle: &Puzzle,
    layout: &Layout,
    plan: Option<&[BigUint]>,
    at: &impl Fn([f64; 2]) -> (f64, f64),
) {
    let size = UNIT;
    for caption in &layout.captions {
        let (x, y) = at(caption.at);
        let _ = writeln!(
            out,
            r#"<text class="caption" x="{x:.1}" y="{y:.1}" font-size="14" fill="{}" text-anchor="middle" dominant-baseline="central">{}</text>"#,
            PALETTE.label,
            escape(&caption.name)
        );
    }
    for (j, button) in layout.buttons.iter().enumerate().filter(|(_, b)| b.cell.is_none()) {
        let (bx, by) = at(button.centre);
        let (w, h) = (1.6 * size, 0.75 * size);
        let _ = writeln!(
            out,
            r#"<rect class="button" x="{:.1}" y="{:.1}" width="{w:.1}" height="{h:.1}" rx="8" fill="{}" stroke="{}" stroke-width="1.5"/>"#,
            bx - w / 2.0,
            by - h / 2.0,
            PALETTE.button,
            PALETTE.edge
        );
        let _ = writeln!(
            out,
            r#"<text class="button-name" x="{bx:.1}" y="{by:.1}" font-size="14" fill="{}" text-anchor="middle" dominant-baseline="central">{}</text>"#,
            PALETTE.text_on_low,
            escape(&button.name)
        );
        let names: Vec<String> = button.cells.iter().map(|&c| puzzle.cell_name(c)).collect();
        let _ = writeln!(
            out,
            r#"<text class="button-cells" x="{bx:.1}" y="{:.1}" font-size="10" fill="{}" text-anchor="middle" dominant-baseline="central">{}</text>"#,
            by + h / 2.0 + 8.0,
            PALETTE.label,
            escape(&format!("→ {}", names.join(" ")))
        );
        if let Some(count) = plan.and_then(|plan| plan.get(j)).filter(|x| !x.is_zero()) {
            badge(out, bx + w / 2.0 - 4.0, by - h / 2.0 + 4.0, count);
        }
    }
}

/// A board too big for shapes: a small square a cell at its picture place, pressed cells marked
/// with a square of the press colour, a plan of explicit buttons listed under it.
fn pixels_svg(puzzle: &Puzzle, layout: &Layout, state: &[u64], plan: Option<&[BigUint]>) -> String {
    let cells = puzzle.cell_count();
    let size: f64 = if cells <= 250_000 { 4.0 } else { 1.0 };
    let margin = 2.0;
    let listed = listed_presses(puzzle, plan);
    let half = if layout.hex { size / 2.0 } else { 0.0 };
    let width = margin * 2.0 + layout.cols as f64 * size + half;
    let list_height = if listed.is_empty() { 0.0 } else { 24.0 };
    let height = margin * 2.0 + layout.rows as f64 * size + list_height;
    let mut out = String::with_capacity(cells * 60 + 512);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="system-ui, sans-serif">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="{}"/>"#, PALETTE.background);
    let moduli = puzzle.moduli();
    let corner = |i: usize| {
        let (r, c) = layout.place(i);
        (
            margin + c as f64 * size + if layout.hex && r % 2 == 1 { half } else { 0.0 },
            margin + r as f64 * size,
        )
    };
    for i in 0..cells {
        let (x, y) = corner(i);
        let (value, modulus) = (state.get(i).copied().unwrap_or(0), moduli[i]);
        let _ = writeln!(
            out,
            r#"<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{}"/>"#,
            cell_colour(value, modulus)
        );
    }
    if let Some(plan) = plan.filter(|_| puzzle.buttons_are_cells()) {
        for (i, count) in plan.iter().enumerate().take(cells) {
            if count.is_zero() {
                continue;
            }
            let (x, y) = corner(i);
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
    finish(out, &listed, height, margin)
}

/// The presses of `plan` listed under the picture, `name ×count` for each button pressed, when
/// the buttons are not the cells (a pressed cell shows its count on itself).
fn listed_presses(puzzle: &Puzzle, plan: Option<&[BigUint]>) -> Vec<String> {
    match plan {
        Some(plan) if !puzzle.buttons_are_cells() => plan
            .iter()
            .enumerate()
            .filter(|(_, x)| !x.is_zero())
            .map(|(j, x)| format!("{} ×{x}", puzzle.button_name(j)))
            .collect(),
        _ => Vec::new(),
    }
}

/// The end of a board's SVG: the plan listed under the board by button name (for puzzles whose
/// buttons are not cells), then the closing tag.
fn finish(mut out: String, listed: &[String], height: f64, margin: f64) -> String {
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

/// Text escaped for XML and HTML (text and attribute values alike).
#[doc(hidden)]
pub fn escape(text: &str) -> String {
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
        assert_eq!(svg.matches(r#"<circle class="cell""#).count(), 4);
        assert_eq!(svg.matches(r#"<circle class="badge""#).count(), 4);
        assert_eq!(svg.matches(r#"<line class="edge""#).count(), 3);
        assert!(svg.contains(">9</text>"));
    }
}
