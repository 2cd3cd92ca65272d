// Drawing boards on a <canvas> from the layout the server sends (modsolve::report::layout, which
// the SVG writer, modsolve::report::svg, draws from too) and its palette, and finding the cell or
// button under the pointer. Coordinates of the layout are in cell widths; a board of more than
// `textCellLimit` cells is drawn a pixel a cell.

export let palette = null;
export let textCellLimit = 4096;

export function setPalette(p, limit) {
  palette = p;
  textCellLimit = limit;
}

function rgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

// `low` mixed towards `high` by value / (modulus - 1), as report::svg::cell_colour does.
// A board document writes moduli, start and target as one number when every cell has it (a
// 2000×2000 board of one modulus is three numbers, not 24 MB of lists): each becomes a list of
// one value per cell again, in place, before anything reads them.
export function cellArrays(board) {
  for (const key of ['moduli', 'start', 'target']) {
    if (!Array.isArray(board[key])) board[key] = new Array(board.cells).fill(board[key]);
  }
  return board;
}

export function cellColour(value, modulus) {
  // A BigInt (past 2^53) as the nearest number: a colour needs no more.
  value = Number(value);
  modulus = Number(modulus);
  const a = rgb(palette.low), b = rgb(palette.high);
  const t = modulus <= 1 ? 0 : Math.min(value, modulus - 1) / (modulus - 1);
  const mix = (i) => Math.round(a[i] + (b[i] - a[i]) * t);
  return [mix(0), mix(1), mix(2)];
}

function light(value, modulus) {
  value = Number(value);
  modulus = Number(modulus);
  return modulus > 1 && value > 0 && Math.min(value, modulus - 1) * 2 >= modulus - 1;
}

// Boards drawn with shapes (not pixels).
function shaped(board) {
  return board.cells <= textCellLimit && board.layout.width !== undefined;
}

// The geometry of a board drawn at most `maxWidth` × `maxHeight`: pixels a cell width (`size`),
// margin, and the canvas size.
export function geometry(board, maxWidth, maxHeight) {
  const { rows, cols, hex } = board.layout;
  const text = shaped(board);
  // A torus gets room around it for the marks that say its sides join.
  const margin = text ? (board.layout.wrap ? 20 : 8) : 2;
  const width = text ? board.layout.width : cols + (hex ? 0.5 : 0);
  // Node numbers written under circles need the room the layout keeps for labels.
  const under = text && numbered(board) && board.layout.shape === 'circle' && !board.layout.labels ? 0.45 : 0;
  const height = text ? board.layout.height + under : rows;
  let size = Math.min((maxWidth - 2 * margin) / width, (maxHeight - 2 * margin) / height);
  // Circles hold three lines of text (modulus, value, target): they may grow larger.
  const most = board.layout.shape === 'circle' ? 84 : 64;
  size = text ? Math.max(4, Math.min(most, Math.floor(size))) : Math.max(0.25, size);
  return { rows, cols, hex, text, margin, size, width: Math.ceil(2 * margin + width * size), height: Math.ceil(2 * margin + height * size) };
}

// Whether the board writes each node's number (a graph drawn by hand, without labels).
function numbered(board) {
  return !board.labels && Boolean(board.edges);
}

// Each cell's button, when the buttons are on the cells (a graph's own, or explicit buttons as
// many as the cells, as Merlin's squares): cell → button; null when they are not.
export function cellButtons(board) {
  if (board.buttons_are_cells) return Array.from({ length: board.cells }, (_, i) => i);
  const placed = board.layout.buttons || [];
  if (!placed.length || placed.some((b) => b.cell === undefined || b.cell === null)) return null;
  const out = new Array(board.cells).fill(null);
  placed.forEach((b, j) => { out[b.cell] = j; });
  return out;
}

// The picture place [row, col] of cell i.
export function place(board, i) {
  const p = board.layout.positions;
  if (p) return p[i];
  const cols = Math.max(1, board.layout.cols);
  return [Math.floor(i / cols), i % cols];
}

// The centre of cell i in cell widths (the layout's `centres`, or its picture place).
export function centre(board, i) {
  const c = board.layout.centres;
  if (c) return c[i];
  const [r, col] = place(board, i);
  return [col + 0.5 + (board.layout.hex && r % 2 === 1 ? 0.5 : 0), r + 0.5];
}

// The centre of cell i on the canvas, in CSS pixels (`centres` overrides the layout's, as
// while a cell is dragged).
export function cellPoint(canvas, board, i, centres = null) {
  const g = canvas._geometry;
  if (!g.text) {
    const [r, c] = place(board, i);
    const shift = g.hex && r % 2 === 1 ? g.size / 2 : 0;
    return { x: g.margin + c * g.size + shift + g.size / 2, y: g.margin + r * g.size + g.size / 2 };
  }
  const [x, y] = centres ? centres[i] : centre(board, i);
  return { x: g.margin + x * g.size, y: g.margin + y * g.size };
}

// The centre of placed button j on the canvas, or null.
export function buttonPoint(canvas, board, j) {
  const g = canvas._geometry, b = (board.layout.buttons || [])[j];
  if (!g || !g.text || !b) return null;
  return { x: g.margin + b.centre[0] * g.size, y: g.margin + b.centre[1] * g.size };
}

// A canvas point (CSS pixels) in cell widths.
export function toUnits(canvas, x, y) {
  const g = canvas._geometry;
  return [(x - g.margin) / g.size, (y - g.margin) / g.size];
}

// Draws `state` on the canvas. Options: `plan` (press counts per button) as badges; `hint` (a
// button) ringed; `edit` ('start', 'target' or 'moduli': the Edit view, each cell showing its
// target and modulus, the edited one large; `state` is then the start); `preview` (a button
// whose press is shown on the cells it changes); `centres` (cell centres overriding the
// layout's, as while dragging). Outside the Edit view every cell shows its target (`→t`) under
// its value, and its modulus (`mod m`) when the cells' moduli differ or are not 2.
export function draw(canvas, board, state, { plan = null, hint = null, maxWidth = 640, maxHeight = 640, edit = null, preview = null, centres = null, keep = false } = {}) {
  const g = keep && canvas._geometry ? canvas._geometry : geometry(board, maxWidth, maxHeight);
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(g.width * dpr);
  canvas.height = Math.round(g.height * dpr);
  canvas.style.width = g.width + 'px';
  canvas.style.height = g.height + 'px';
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = palette.background;
  ctx.fillRect(0, 0, g.width, g.height);
  canvas._geometry = g;
  const onCells = cellButtons(board);
  const pressable = board.buttons_are_cells;
  if (!g.text) {
    drawPixels(ctx, board, state, plan && pressable ? plan : null, g, edit);
    canvas._drawn = { pixels: true, cells: [], edges: 0, labels: [], buttons: [] };
    return g;
  }
  const layout = board.layout, s = g.size;
  const at = (i) => cellPoint(canvas, board, i, centres);
  const drawn = { pixels: false, cells: [], edges: 0, labels: [], buttons: [], size: s, lines: 0, wraps: 0, captions: [], spots: [] };
  const previewed = preview === null || !board.effects ? null : new Map((board.effects[preview] || []).map(([c, a]) => [c, a]));
  // Lines first: the graph's edges, then the cells explicit buttons change.
  ctx.lineCap = 'round';
  ctx.strokeStyle = palette.edge || '#64748b';
  ctx.lineWidth = Math.max(1, s * 0.06);
  for (const [a, b] of layout.edges || []) {
    const p = at(a), q = at(b);
    ctx.beginPath();
    ctx.moveTo(p.x, p.y);
    ctx.lineTo(q.x, q.y);
    ctx.stroke();
    drawn.edges++;
  }
  // A button apart from the cells always has its lines; one on its cell only while hovered.
  (layout.buttons || []).forEach((button, j) => {
    const active = j === preview || (j === hint && !pressable);
    const apart = button.cell === undefined || button.cell === null;
    if (!active && !apart) return;
    if (!active) drawn.lines += button.cells.length;
    const from = buttonPoint(canvas, board, j);
    ctx.save();
    ctx.strokeStyle = active ? palette.press : (palette.edge || '#64748b');
    ctx.globalAlpha = active ? 1 : 0.35;
    ctx.lineWidth = active ? Math.max(1.5, s * 0.05) : 1;
    ctx.setLineDash(active ? [] : [4, 3]);
    for (const cell of button.cells) {
      const p = at(cell);
      ctx.beginPath();
      ctx.moveTo(from.x, from.y);
      ctx.lineTo(p.x, p.y);
      ctx.stroke();
    }
    ctx.restore();
  });
  // A graph the designer draws by hand (its edges sent for the graph editor) and without
  // labels of its own shows each node's number, as the editor's edge list names them.
  const numbers = !board.labels && board.edges ? Array.from({ length: board.cells }, (_, i) => String(i)) : null;
  const moduli = board.moduli, target = board.target;
  // Outside the Edit view the modulus is written when it tells something: cells differ, or
  // count modulo something other than 2.
  const telling = moduli.some((m) => String(m) !== String(moduli[0])) || String(moduli[0]) !== '2';
  if (layout.wrap) drawn.wraps = wrapMarks(ctx, board, g);
  for (const caption of layout.captions || []) {
    ctx.fillStyle = palette.label || '#94a3b8';
    const font = fitText(ctx, caption.name, g.margin + caption.at[0] * s, g.margin + caption.at[1] * s, s * 2.5, Math.max(11, Math.round(s * 0.24)), 11);
    drawn.captions.push({ name: caption.name, font });
  }
  const labels = layout.labels && board.labels ? board.labels : numbers;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (let i = 0; i < board.cells; i++) {
    const { x, y } = at(i);
    const v = state[i], m = moduli[i], t = target[i];
    const shown = edit === 'target' ? t : v;
    const [cr, cg, cb] = cellColour(shown, m);
    ctx.fillStyle = `rgb(${cr},${cg},${cb})`;
    const half = outline(ctx, layout.shape, x, y, s, 0);
    ctx.fill();
    if (v !== t) {
      ctx.strokeStyle = palette.off_target;
      ctx.lineWidth = 2.5;
      ctx.stroke();
    }
    const texts = [], fonts = [];
    const cell = { x, y, texts, fonts, mark: null };
    drawn.cells.push(cell);
    const ink = light(shown, m) ? palette.text_on_high : palette.text_on_low;
    if (!edit && v !== t && 2 * half < 40 && 2 * half >= 6) {
      // Too small for `→t`: a square of the target's colour in the bottom-right corner (the
      // value keeps the middle, the plan's badge the top-right corner).
      const [tr, tg, tb] = cellColour(t, m);
      const side = Math.max(3, half * 0.6), x0 = x + half * 0.85 - side, y0 = y + half * 0.85 - side;
      ctx.fillStyle = `rgb(${tr},${tg},${tb})`;
      ctx.fillRect(x0, y0, side, side);
      ctx.strokeStyle = ink;
      ctx.lineWidth = 1;
      ctx.strokeRect(x0, y0, side, side);
      cell.mark = String(t);
    }
    if (2 * half >= 14) {
      ctx.fillStyle = ink;
      const big = edit === 'target' ? `→${t}` : edit === 'moduli' ? String(m) : String(v);
      fonts.push(fitText(ctx, big, x, y, 2 * half * 0.8, Math.round(s * (layout.shape === 'circle' ? 0.28 : 0.34))));
      texts.push(big);
      if (2 * half >= 40) {
        // The other fields, small (at least 11 px): the start or target below, the modulus
        // above (in the Edit view always, else when it tells something).
        const round = layout.shape === 'circle';
        const small = Math.max(11, Math.round(s * (round ? 0.15 : 0.18)));
        ctx.globalAlpha = 0.9;
        const below = edit === 'target' ? `from ${v}` : `→${t}`;
        const above = !edit && !telling ? null : edit === 'moduli' ? 'mod' : `mod ${m}`;
        fonts.push(fitText(ctx, below, x, y + half * 0.62, 2 * half * (round ? 0.7 : 0.8), small, 11));
        texts.push(below);
        if (above) {
          // Squares and hexagons keep their top-right corner for the plan's badge.
          const ax = round ? x : x - half * 0.28;
          fonts.push(fitText(ctx, above, ax, y - half * (round ? 0.56 : 0.6), half * (round ? 1.5 : 1.25), small, 11));
          texts.push(above);
        }
        ctx.globalAlpha = 1;
      }
    }
    if (labels && labels[i] !== undefined && s >= 20) {
      const font = Math.max(10, Math.round(s * 0.22));
      if (layout.shape === 'circle') {
        // Beside the circle where no edge leaves it, on a patch of background.
        ctx.font = `${font}px system-ui, sans-serif`;
        const w = Math.min(s * 1.45, ctx.measureText(labels[i]).width) + 4, h = font * 1.2;
        const spot = labelSpot(board, i, at, { x, y }, half, w, h, g);
        ctx.fillStyle = palette.background;
        ctx.fillRect(spot.x - w / 2, spot.y - h / 2, w, h);
        ctx.fillStyle = palette.label || '#94a3b8';
        fitText(ctx, labels[i], spot.x, spot.y + font * 0.05, s * 1.45, font);
        drawn.spots.push({ label: labels[i], x: spot.x, y: spot.y, w, h });
      } else if (!edit) {
        ctx.fillStyle = ink;
        fitText(ctx, labels[i], x, y + half * 0.7, 2 * half * 0.9, Math.round(font * 0.8));
      }
      drawn.labels.push(labels[i]);
    }
    const own = onCells ? onCells[i] : null;
    if (plan && own !== null && plan[own] !== undefined && String(plan[own]) !== '0' && 2 * half >= 14) {
      // On a circle's rim, clear of the figures written inside it.
      const corner = layout.shape === 'circle' ? half : half * 0.72;
      badge(ctx, x + corner, y - corner, Math.max(6, Math.min(10, half / 2.5)), String(plan[own]));
    }
    if (previewed && previewed.has(i)) {
      ctx.save();
      ctx.strokeStyle = palette.press;
      ctx.lineWidth = 3;
      ctx.setLineDash([5, 3]);
      outline(ctx, layout.shape, x, y, s, 4);
      ctx.stroke();
      ctx.restore();
      if (2 * half >= 24) {
        const amount = `+${previewed.get(i)}`;
        ctx.font = `bold ${Math.max(9, Math.round(s * 0.18))}px system-ui, sans-serif`;
        const w = ctx.measureText(amount).width + 6, h = Math.max(12, Math.round(s * 0.24));
        // A circle's tag sits outside it, up and left, clear of the modulus written inside.
        const round = layout.shape === 'circle';
        const left = Math.max(1, round ? x - half * 0.71 - w : x - half - 2);
        const top = Math.max(1, round ? y - half * 0.71 - h + 2 : y - half - 2);
        ctx.fillStyle = palette.press;
        ctx.fillRect(left, top, w, h);
        ctx.fillStyle = palette.press_text;
        ctx.fillText(amount, left + w / 2, top + h / 2);
      }
    }
    if (hint !== null && hint === own) {
      ctx.strokeStyle = palette.hint;
      ctx.lineWidth = 4;
      outline(ctx, layout.shape, x, y, s, 5);
      ctx.stroke();
    }
  }
  // Explicit buttons: named faces under the cells.
  (layout.buttons || []).forEach((button, j) => {
    const { x, y } = buttonPoint(canvas, board, j);
    if (button.cell !== undefined && button.cell !== null) {
      drawn.buttons.push({ name: button.name, x, y, cell: button.cell });
      return;
    }
    const w = 1.6 * s, h = 0.75 * s;
    ctx.fillStyle = j === preview ? '#1e3a8a' : (palette.button || '#334155');
    roundRect(ctx, x - w / 2, y - h / 2, w, h, Math.min(8, h / 3));
    ctx.fill();
    ctx.strokeStyle = j === hint ? palette.hint : j === preview ? palette.press : (palette.edge || '#64748b');
    ctx.lineWidth = j === hint ? 4 : 1.5;
    ctx.stroke();
    ctx.fillStyle = palette.text_on_low;
    fitText(ctx, button.name, x, y, w * 0.9, Math.max(10, Math.round(s * 0.24)));
    if (plan && plan[j] !== undefined && String(plan[j]) !== '0') {
      badge(ctx, x + w / 2 - 4, y - h / 2 + 4, Math.max(6, Math.min(10, s / 6)), String(plan[j]));
    }
    drawn.buttons.push({ name: button.name, x, y });
  });
  canvas._drawn = drawn;
  return g;
}

// Traces a cell's shape (square, hexagon or circle) around (x, y), `grow` pixels larger;
// returns half its height.
function outline(ctx, shape, x, y, s, grow) {
  if (shape === 'circle') {
    const r = s * 0.4 + grow;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    return r;
  }
  if (shape === 'hexagon') {
    const r = s * 0.46 / Math.cos(Math.PI / 6) + grow;
    ctx.beginPath();
    for (let k = 0; k < 6; k++) {
      const a = (k * 60 - 90) * Math.PI / 180;
      ctx[k ? 'lineTo' : 'moveTo'](x + r * Math.cos(a), y + r * Math.sin(a));
    }
    ctx.closePath();
    return s * 0.46;
  }
  const inner = s * 0.9 + 2 * grow;
  roundRect(ctx, x - inner / 2, y - inner / 2, inner, inner, Math.min(6, inner / 4));
  return inner / 2;
}

function badge(ctx, x, y, radius, text) {
  ctx.fillStyle = palette.press;
  ctx.beginPath();
  ctx.arc(x, y, radius, 0, 2 * Math.PI);
  ctx.fill();
  ctx.fillStyle = palette.press_text;
  fitText(ctx, text, x, y, radius * 2.4, Math.round(radius * 1.2));
}

// Text centred at (x, y) in at most `font` pixels, smaller when wider than `width`. Text still
// too wide at the smallest readable size (a value of a modulus past 2^40) keeps its ends and
// loses its middle: 9007…4093, inside its cell.
// Returns the font size used. `least` is the smallest size it shrinks to.
function fitText(ctx, text, x, y, width, font, least = 7) {
  ctx.font = `${font}px system-ui, sans-serif`;
  const w = ctx.measureText(text).width;
  let shown = text;
  let used = font;
  if (w > width && w > 0) {
    used = Math.max(Math.min(least, font), Math.floor(font * width / w));
    ctx.font = `${used}px system-ui, sans-serif`;
    for (let keep = Math.floor((text.length - 1) / 2); keep >= 1 && ctx.measureText(shown).width > width; keep--) {
      shown = `${text.slice(0, keep)}…${text.slice(-keep)}`;
    }
  }
  ctx.fillText(shown, x, y);
  return used;
}

// Where the label of circle i goes: under it, unless an edge leaves it downwards; then the
// first of the other sides (and corners) that no edge leaves by and that stays on the canvas.
function labelSpot(board, i, at, c, half, w, h, g) {
  const angles = [];
  for (const [a, b] of board.layout.edges || []) {
    if (a !== i && b !== i) continue;
    const o = at(a === i ? b : a);
    angles.push(Math.atan2(o.y - c.y, o.x - c.x));
  }
  const gap = 4;
  const sides = [[0, 1], [-1, 1], [1, 1], [-1, 0], [1, 0], [-1, -1], [1, -1], [0, -1]];
  let best = null;
  for (const [dx, dy] of sides) {
    const x = c.x + dx * (half * (dy ? 0.72 : 1) + gap + w / 2);
    const y = c.y + dy * (half * (dx ? 0.72 : 1) + gap + h / 2);
    if (x - w / 2 < 0 || x + w / 2 > g.width || y - h / 2 < 0 || y + h / 2 > g.height) continue;
    const away = Math.atan2(dy, dx);
    const clear = Math.min(Math.PI, ...angles.map((a) => Math.abs(Math.atan2(Math.sin(a - away), Math.cos(a - away)))));
    if (clear >= Math.PI / 4 + 0.01) return { x, y };
    if (!best || clear > best.clear) best = { x, y, clear };
  }
  return best || { x: c.x, y: c.y + half + gap + h / 2 };
}

// Marks that a torus's sides join: a short arrow out of each row's and column's ends.
function wrapMarks(ctx, board, g) {
  const { rows, cols } = board.layout;
  const reach = g.margin - 4, tip = Math.min(5, reach / 3);
  let count = 0;
  ctx.save();
  ctx.strokeStyle = palette.label || '#94a3b8';
  ctx.lineWidth = 1.5;
  const arrow = (x, y, dx, dy) => {
    const ex = x + dx * reach, ey = y + dy * reach;
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(ex, ey);
    ctx.moveTo(ex - dx * tip + dy * tip, ey - dy * tip + dx * tip);
    ctx.lineTo(ex, ey);
    ctx.lineTo(ex - dx * tip - dy * tip, ey - dy * tip - dx * tip);
    ctx.stroke();
    count++;
  };
  const left = g.margin, right = g.margin + board.layout.width * g.size;
  const top = g.margin, bottom = g.margin + board.layout.height * g.size;
  for (let r = 0; r < rows; r++) {
    const y = g.margin + (r + 0.5) * g.size;
    arrow(left, y, -1, 0);
    arrow(right, y, 1, 0);
  }
  for (let c = 0; c < cols; c++) {
    const x = g.margin + (c + 0.5) * g.size;
    arrow(x, top, 0, -1);
    arrow(x, bottom, 0, 1);
  }
  ctx.restore();
  return count;
}

// Big boards outside the Edit view: a cell at its target is drawn in this colour (the goal is a
// board all of it), the others in their value's colour.
export const DONE = '#15803d';

// Big boards: one pixel a cell in an ImageData, scaled without smoothing. Outside the Edit view
// (`edit` null) a cell at its target is `DONE` green, so the goal shows where there is no room
// for `→t`; the Edit view's target field shows the target's values.
function drawPixels(ctx, board, state, plan, g, edit) {
  const { rows, cols } = g;
  const image = new ImageData(cols, rows);
  const data = image.data;
  const moduli = board.moduli, target = board.target;
  const press = rgb(palette.press), done = rgb(DONE);
  if (edit === 'target') state = target;
  const cache = new Map();
  for (let i = 0; i < board.cells; i++) {
    const [r, c] = place(board, i);
    const o = 4 * (r * cols + c);
    let colour;
    if (plan && String(plan[i]) !== '0') {
      colour = press;
    } else if (edit === null && String(state[i]) === String(target[i])) {
      colour = done;
    } else {
      // One number a (value, modulus) pair while moduli stay below 2^16; a string past that.
      const v = state[i], m = moduli[i];
      const key = typeof m === 'number' && m < 65536 && typeof v === 'number' ? v * 65536 + m : `${v}/${m}`;
      colour = cache.get(key);
      if (!colour) {
        colour = cellColour(state[i], moduli[i]);
        cache.set(key, colour);
      }
    }
    data[o] = colour[0];
    data[o + 1] = colour[1];
    data[o + 2] = colour[2];
    data[o + 3] = 255;
  }
  const off = document.createElement('canvas');
  off.width = cols;
  off.height = rows;
  off.getContext('2d').putImageData(image, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(off, g.margin, g.margin, cols * g.size, rows * g.size);
}

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

// The cell under a point of the canvas (CSS pixels), or null.
export function cellAt(canvas, board, x, y) {
  const g = canvas._geometry;
  if (!g) return null;
  if (g.text) {
    // The nearest centre within the cell's reach.
    const [ux, uy] = toUnits(canvas, x, y);
    let best = null, bestD = board.layout.shape === 'circle' ? 0.5 * 0.5 : 0.5 * 0.5 * 2;
    for (let i = 0; i < board.cells; i++) {
      const [cx, cy] = centre(board, i);
      const dx = ux - cx, dy = uy - cy;
      if (board.layout.shape !== 'circle' && (Math.abs(dx) > 0.5 || Math.abs(dy) > 0.5)) continue;
      const d = dx * dx + dy * dy;
      if (d <= bestD) {
        best = i;
        bestD = d;
      }
    }
    return best;
  }
  const r = Math.floor((y - g.margin) / g.size);
  if (r < 0 || r >= g.rows) return null;
  const shift = g.hex && r % 2 === 1 ? g.size / 2 : 0;
  const c = Math.floor((x - g.margin - shift) / g.size);
  if (c < 0 || c >= g.cols) return null;
  const positions = board.layout.positions;
  if (!positions) {
    const i = r * g.cols + c;
    return i < board.cells ? i : null;
  }
  if (!board._index) {
    board._index = new Map();
    positions.forEach(([pr, pc], i) => board._index.set(pr * g.cols + pc, i));
  }
  const i = board._index.get(r * g.cols + c);
  return i === undefined ? null : i;
}

// The placed explicit button under a point of the canvas, or null.
export function buttonAt(canvas, board, x, y) {
  const g = canvas._geometry;
  if (!g || !g.text) return null;
  const [ux, uy] = toUnits(canvas, x, y);
  const buttons = board.layout.buttons || [];
  for (let j = 0; j < buttons.length; j++) {
    const [bx, by] = buttons[j].centre;
    if (Math.abs(ux - bx) <= 0.8 && Math.abs(uy - by) <= 0.375) return j;
  }
  return null;
}

// The button a point presses: a cell's (buttons are cells) or a placed button; null for none.
export function pressAt(canvas, board, x, y) {
  const onCells = cellButtons(board);
  if (onCells) {
    const cell = cellAt(canvas, board, x, y);
    return cell === null ? null : onCells[cell];
  }
  return buttonAt(canvas, board, x, y);
}

// What the marks on the board mean, for the legend under it: [kind, text] pairs. `pixels`: the
// board was drawn a pixel a cell (`state`, the values drawn, then counts the cells at target).
export function legend(board, { edit = null, plan = false, play = false, hover = true, pixels = false, state = null } = {}) {
  if (pixels) return pixelLegend(board, { edit, plan, state });
  const items = [['off', 'not at its target']];
  items.push(['target', '→t (on small cells, the corner square\'s colour): the cell\'s target']);
  const m = board.moduli;
  if (edit || m.some((v) => String(v) !== String(m[0])) || String(m[0]) !== '2') items.push(['modulus', 'mod m: what it counts modulo']);
  if (edit === 'target') items.push(['from', 'from s: its start']);
  if (plan) items.push(['badge', 'presses in the fewest plan']);
  if (play) items.push(['hint', 'hint: press this next']);
  if (hover) items.push(['preview', 'hover: what a press adds']);
  const placed = board.layout.buttons || [];
  if (placed.some((b) => b.cell === undefined || b.cell === null)) items.push(['lines', 'lines: the cells a button changes']);
  if (!board.buttons_are_cells && placed.length && cellButtons(board)) items.push(['own', 'each square is a button: click it']);
  if (board.layout.wrap) items.push(['wrap', 'arrows: the sides join (a torus)']);
  if (edit && board.layout.movable) items.push(['drag', 'drag a cell to move it (written as layout:)']);
  return items;
}

// The legend of a board drawn a pixel a cell: what its colours mean, and outside the Edit view
// how many cells are at their target.
function pixelLegend(board, { edit, plan, state }) {
  const high = 'dark (0) to yellow (the highest value)';
  if (edit) {
    const what = edit === 'target' ? 'its target' : 'its start';
    return [['pixel', `a pixel a cell, coloured by ${what}: ${high}`]];
  }
  const values = state || board.start;
  let at = 0;
  for (let i = 0; i < board.cells; i++) if (String(values[i]) === String(board.target[i])) at++;
  const items = [['done', `green: at its target (${at.toLocaleString('en')} of ${board.cells.toLocaleString('en')} cells)`]];
  items.push(['pixel', `other colours: not at its target, by value, ${high}`]);
  if (plan) items.push(['badge', 'blue: pressed in the fewest plan']);
  return items;
}
