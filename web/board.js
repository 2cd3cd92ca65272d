// Drawing boards on a <canvas>, with the layout and palette the server sends (the SVG writer,
// modsolve::report::svg, uses the same), and finding the cell under a click.

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

// The geometry of a board drawn at most `maxWidth` wide: cell size, margin, and the place of
// each cell.
export function geometry(board, maxWidth, maxHeight) {
  const { rows, cols, hex } = board.layout;
  const text = board.cells <= textCellLimit;
  const margin = text ? 8 : 2;
  const width = cols + (hex ? 0.5 : 0);
  let size = Math.min((maxWidth - 2 * margin) / width, (maxHeight - 2 * margin) / rows);
  size = text ? Math.max(8, Math.min(64, Math.floor(size))) : Math.max(0.25, size);
  return { rows, cols, hex, text, margin, size, width: Math.ceil(2 * margin + width * size), height: Math.ceil(2 * margin + rows * size) };
}

export function place(board, i) {
  const p = board.layout.positions;
  if (p) return p[i];
  const cols = Math.max(1, board.layout.cols);
  return [Math.floor(i / cols), i % cols];
}

// Draws `state` on the canvas; `plan` (press counts per button, when buttons are cells) as
// badges; `hint` (a cell) ringed.
export function draw(canvas, board, state, { plan = null, hint = null, maxWidth = 640, maxHeight = 640 } = {}) {
  const g = geometry(board, maxWidth, maxHeight);
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(g.width * dpr);
  canvas.height = Math.round(g.height * dpr);
  canvas.style.width = g.width + 'px';
  canvas.style.height = g.height + 'px';
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = palette.background;
  ctx.fillRect(0, 0, g.width, g.height);
  const moduli = board.moduli, target = board.target;
  const pressable = board.buttons_are_cells;
  if (!g.text) {
    drawPixels(ctx, board, state, plan && pressable ? plan : null, g);
    canvas._geometry = g;
    return g;
  }
  const gap = 4, inner = g.size - gap;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (let i = 0; i < board.cells; i++) {
    const [r, c] = place(board, i);
    const x = g.margin + c * g.size + (g.hex && r % 2 === 1 ? g.size / 2 : 0);
    const y = g.margin + r * g.size;
    const v = state[i], m = moduli[i];
    const [cr, cg, cb] = cellColour(v, m);
    ctx.fillStyle = `rgb(${cr},${cg},${cb})`;
    roundRect(ctx, x, y, inner, inner, Math.min(6, inner / 4));
    ctx.fill();
    if (v !== target[i]) {
      ctx.strokeStyle = palette.off_target;
      ctx.lineWidth = 2;
      ctx.stroke();
    }
    if (inner >= 14) {
      ctx.fillStyle = light(v, m) ? palette.text_on_high : palette.text_on_low;
      ctx.font = `${Math.round(inner * 0.4)}px system-ui, sans-serif`;
      ctx.fillText(String(v), x + inner / 2, y + inner / 2);
    }
    if (plan && pressable && plan[i] && String(plan[i]) !== '0' && inner >= 14) {
      const radius = Math.max(6, Math.min(10, inner / 4));
      const bx = x + inner - radius, by = y + radius;
      ctx.fillStyle = palette.press;
      ctx.beginPath();
      ctx.arc(bx, by, radius, 0, 2 * Math.PI);
      ctx.fill();
      ctx.fillStyle = palette.press_text;
      ctx.font = `${Math.round(radius * 1.2)}px system-ui, sans-serif`;
      ctx.fillText(String(plan[i]), bx, by);
    }
    if (hint === i) {
      ctx.strokeStyle = palette.hint;
      ctx.lineWidth = 4;
      roundRect(ctx, x - 2, y - 2, inner + 4, inner + 4, 8);
      ctx.stroke();
    }
  }
  canvas._geometry = g;
  return g;
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

// The cell under a click at canvas coordinates (CSS pixels), or null.
export function cellAt(canvas, board, x, y) {
  const g = canvas._geometry;
  if (!g) return null;
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
