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
  const margin = text ? 8 : 2;
  const width = text ? board.layout.width : cols + (hex ? 0.5 : 0);
  const height = text ? board.layout.height : rows;
  let size = Math.min((maxWidth - 2 * margin) / width, (maxHeight - 2 * margin) / height);
  size = text ? Math.max(4, Math.min(64, Math.floor(size))) : Math.max(0.25, size);
  return { rows, cols, hex, text, margin, size, width: Math.ceil(2 * margin + width * size), height: Math.ceil(2 * margin + height * size) };
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
// layout's, as while dragging).
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
  const pressable = board.buttons_are_cells;
  if (!g.text) {
    drawPixels(ctx, board, state, plan && pressable ? plan : null, g);
    canvas._drawn = { pixels: true, cells: [], edges: 0, labels: [], buttons: [] };
    return g;
  }
  const layout = board.layout, s = g.size;
  const at = (i) => cellPoint(canvas, board, i, centres);
  const drawn = { pixels: false, cells: [], edges: 0, labels: [], buttons: [], size: s };
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
  const lined = (layout.buttons || []).length <= 4;
  (layout.buttons || []).forEach((button, j) => {
    const active = j === preview || (j === hint && !pressable);
    if (!active && !lined) return;
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
    const texts = [];
    drawn.cells.push({ x, y, texts });
    const ink = light(shown, m) ? palette.text_on_high : palette.text_on_low;
    if (2 * half >= 14) {
      ctx.fillStyle = ink;
      const big = edit === 'target' ? `→${t}` : edit === 'moduli' ? String(m) : String(v);
      fitText(ctx, big, x, y, 2 * half * 0.8, Math.round(s * 0.34));
      texts.push(big);
      if (edit && 2 * half >= 34) {
        // The other two fields, small: the start or target below, the modulus above.
        const small = Math.max(9, Math.round(s * 0.16));
        ctx.fillStyle = ink;
        ctx.globalAlpha = 0.85;
        const below = edit === 'target' ? `from ${v}` : `→${t}`;
        const above = edit === 'moduli' ? 'mod' : `mod ${m}`;
        fitText(ctx, below, x, y + half * 0.62, 2 * half * 0.75, small);
        // Squares and hexagons keep their top-right corner for the plan's badge.
        const ax = layout.shape === 'circle' ? x : x - half * 0.3;
        fitText(ctx, above, ax, y - half * 0.6, half * 1.1, small);
        texts.push(below, above);
        ctx.globalAlpha = 1;
      }
    }
    if (labels && labels[i] !== undefined && s >= 20) {
      const font = Math.max(10, Math.round(s * 0.22));
      if (layout.shape === 'circle') {
        // On a patch of background, so that edges passing under it leave it readable.
        ctx.font = `${font}px system-ui, sans-serif`;
        const w = Math.min(s * 1.45, ctx.measureText(labels[i]).width) + 4;
        ctx.fillStyle = palette.background;
        ctx.fillRect(x - w / 2, y + half + font * 0.25, w, font * 1.2);
        ctx.fillStyle = palette.label || '#94a3b8';
        fitText(ctx, labels[i], x, y + half + font * 0.85, s * 1.45, font);
      } else if (!edit) {
        ctx.fillStyle = ink;
        fitText(ctx, labels[i], x, y + half * 0.7, 2 * half * 0.9, Math.round(font * 0.8));
      }
      drawn.labels.push(labels[i]);
    }
    if (plan && pressable && plan[i] !== undefined && String(plan[i]) !== '0' && 2 * half >= 14) {
      // On a circle's rim, clear of the figures written inside it.
      const corner = layout.shape === 'circle' ? half : half * 0.72;
      badge(ctx, x + corner, y - corner, Math.max(6, Math.min(10, half / 2.5)), String(plan[i]));
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
        ctx.fillStyle = palette.press;
        ctx.fillRect(x - half - 2, y - half - 2, w, h);
        ctx.fillStyle = palette.press_text;
        ctx.fillText(amount, x - half - 2 + w / 2, y - half - 2 + h / 2);
      }
    }
    if (hint === i && pressable) {
      ctx.strokeStyle = palette.hint;
      ctx.lineWidth = 4;
      outline(ctx, layout.shape, x, y, s, 5);
      ctx.stroke();
    }
  }
  // Explicit buttons: named faces under the cells.
  (layout.buttons || []).forEach((button, j) => {
    const { x, y } = buttonPoint(canvas, board, j);
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
function fitText(ctx, text, x, y, width, font) {
  ctx.font = `${font}px system-ui, sans-serif`;
  const w = ctx.measureText(text).width;
  let shown = text;
  if (w > width && w > 0) {
    ctx.font = `${Math.max(7, Math.floor(font * width / w))}px system-ui, sans-serif`;
    for (let keep = Math.floor((text.length - 1) / 2); keep >= 1 && ctx.measureText(shown).width > width; keep--) {
      shown = `${text.slice(0, keep)}…${text.slice(-keep)}`;
    }
  }
  ctx.fillText(shown, x, y);
}

// Big boards: one pixel a cell in an ImageData, scaled without smoothing.
function drawPixels(ctx, board, state, plan, g) {
  const { rows, cols } = g;
  const image = new ImageData(cols, rows);
  const data = image.data;
  const moduli = board.moduli;
  const press = rgb(palette.press);
  const cache = new Map();
  for (let i = 0; i < board.cells; i++) {
    const [r, c] = place(board, i);
    const o = 4 * (r * cols + c);
    let colour;
    if (plan && String(plan[i]) !== '0') {
      colour = press;
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
  if (board.buttons_are_cells) return cellAt(canvas, board, x, y);
  return buttonAt(canvas, board, x, y);
}

// What the marks on the board mean, for the legend under it: [kind, text] pairs.
export function legend(board, { edit = null, plan = false, play = false } = {}) {
  const items = [['off', 'not at its target']];
  if (edit) {
    items.push(['target', '→t: the cell\'s target'], ['modulus', 'mod m: what it counts modulo']);
    if (edit === 'target') items.push(['from', 'from s: its start']);
  }
  if (plan) items.push(['badge', 'presses in the fewest plan']);
  if (play) items.push(['hint', 'hint: press this next']);
  items.push(['preview', 'hover: what a press adds']);
  if (!board.buttons_are_cells && (board.layout.buttons || []).length) items.push(['lines', 'lines: the cells a button changes']);
  if (edit && board.layout.movable) items.push(['drag', 'drag a cell to move it (written as layout:)']);
  return items;
}
