// The exported player (`modsolve export FILE --html`): one level or a pack of levels, played
// offline from the document embedded in the page (modsolve::export::Document). Presses are
// simulated here, phase by phase for staged presses; hints solve from the current position
// with the embedded plans and quiet basis (see modsolve::export), exactly, in BigInt.
// The board is drawn by the playground's own board.js, bundled into the page.

import { draw, pressAt, cellPoint, buttonPoint, setPalette, cellArrays, legend } from './board.js';

const $ = (id) => document.getElementById(id);

// Numbers past 2^53 (huge moduli) read exactly where the browser gives JSON.parse the source
// text (Chromium 114, Firefox 135, Safari 18.4); press counts and periods are strings anyway.
function parseExact(text) {
  return JSON.parse(text, (key, value, context) =>
    typeof value === 'number' && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)
      ? BigInt(context.source)
      : value);
}

const doc = parseExact($('modsolve-data').textContent);
setPalette(doc.palette, doc.text_cell_limit);

// The page walks every quiet-pattern combination up to this many (the hint is then a press of
// a fewest plan).
const WALK_LIMIT = 1n << 16n;

const mod = (a, m) => ((a % m) + m) % m;

// ---- a level, ready to play ------------------------------------------------------------------

function prepare(level) {
  const board = cellArrays(level.board);
  // Values are drawn as numbers below 2^53 and as BigInt past it (as the playground draws them).
  const drawn = (v, i) => (typeof board.moduli[i] === 'bigint' ? BigInt(v) : Number(v));
  board.start = board.start.map(drawn);
  board.target = board.target.map(drawn);
  const moduli = board.moduli.map((m) => BigInt(m));
  const cut = (c) => (c ? { button: c.button, phases: c.phases } : null);
  return {
    level,
    board,
    moduli,
    drawn,
    start: board.start.map((v) => BigInt(v)),
    target: board.target.map((v) => BigInt(v)),
    effects: level.effects.map((phases) => phases.map((list) => list.map(([c, a]) => [c, BigInt(a)]))),
    periods: level.periods.map((l) => BigInt(l)),
    limits: level.max_presses ? level.max_presses.map((l) => BigInt(l)) : null,
    cases: level.cases.map((c) => ({ cut: cut(c.cut), z: c.presses.map((x) => BigInt(x)) })),
    basis: level.quiet_basis.map((g) => ({ g: g.presses.map((x) => BigInt(x)), order: BigInt(g.order) })),
    fewest: { presses: level.fewest.presses.map((x) => BigInt(x)), cut: cut(level.fewest.cut) },
    par: BigInt(level.par),
  };
}

// A button's name for people: its label, else `button 3` (or `cell 3` when buttons are cells).
function buttonName(board, j) {
  const name = board.button_names ? board.button_names[j]
    : board.labels && board.labels.length === board.cells ? board.labels[j] : null;
  if (name !== null && !/^\d+$/.test(name)) return name;
  return `${board.buttons_are_cells ? 'cell' : 'button'} ${j}`;
}

// ---- the game --------------------------------------------------------------------------------

const game = {
  index: 0,
  p: null,          // the prepared level
  history: [],      // buttons pressed, in order
  counts: [],       // full presses per button (a press cut short by the win is in history only)
  state: [],        // BigInt per cell
  won: false,
  hint: null,       // the hinted button
  lastPlan: null,   // the last hint's plan and the full presses it was from
};

function equalsTarget(state, target) {
  for (let i = 0; i < state.length; i++) if (state[i] !== target[i]) return false;
  return true;
}

// One press of button j, phase by phase: the press stops as soon as the board is the target.
function apply(j) {
  const { effects, moduli, target } = game.p;
  const phases = effects[j];
  for (let k = 0; k < phases.length; k++) {
    for (const [c, a] of phases[k]) game.state[c] = (game.state[c] + a) % moduli[c];
    if (equalsTarget(game.state, target)) {
      game.won = true;
      if (k === phases.length - 1) game.counts[j]++;
      return;
    }
  }
  game.counts[j]++;
}

function replay() {
  const p = game.p;
  game.state = p.start.slice();
  game.counts = new Array(p.board.buttons).fill(0);
  game.won = equalsTarget(game.state, p.target);
  for (const j of game.history) apply(j);
}

function press(j) {
  if (game.won) return;
  const limits = game.p.limits;
  if (limits && BigInt(game.counts[j]) >= limits[j]) {
    say(`${buttonName(game.p.board, j)} may be pressed at most ${limits[j]} time${limits[j] === 1n ? '' : 's'}`);
    return;
  }
  game.history.push(j);
  game.hint = null;
  say('');
  apply(j);
  if (game.won) recordWin();
  render();
}

function undo() {
  if (!game.history.length) return;
  game.history.pop();
  game.hint = null;
  say('');
  replay();
  render();
}

function reset() {
  game.history = [];
  game.hint = null;
  say('');
  replay();
  render();
}

// ---- hints: a plan from the current position -------------------------------------------------

// Plans from here are z − p + Σ t_g·g (mod L) for each ending's plan z (module doc of
// modsolve::export); a plan's cost is its presses, plus one for a press cut short by the win.
function planFromHere() {
  const p = game.p;
  const pressed = game.counts.map((c) => BigInt(c));
  const L = p.periods;
  const feasible = (y, cut) => !p.limits || y.every((v, j) =>
    pressed[j] + v + (cut && cut.button === j ? 1n : 0n) <= p.limits[j]);
  const cost = (y, cut) => y.reduce((s, v) => s + v, 0n) + (cut ? 1n : 0n);
  const bases = p.cases.map((c) => ({ cut: c.cut, y: c.z.map((z, j) => mod(z - pressed[j], L[j])) }));
  const combos = p.basis.reduce((s, g) => s * g.order, 1n) * BigInt(bases.length);
  let best = null;
  const consider = (y, cut) => {
    if (!feasible(y, cut)) return;
    const c = cost(y, cut);
    if (best === null || c < best.cost) best = { cost: c, y: y.slice(), cut };
  };
  if (p.level.basis_complete && combos <= WALK_LIMIT) {
    // Without press limits only plans as short as the shortest seen need a look.
    for (const base of bases) walk(base.y, p.basis, L, !p.limits, (y) => consider(y, base.cut));
    return best && { ...best, best: true };
  }
  // The rest of a proven fewest plan is a fewest plan from here.
  const f = p.fewest.presses.slice();
  if (p.fewest.cut) f[p.fewest.cut.button] -= 1n;
  if (p.level.par_proven && f.every((v, j) => pressed[j] <= v)) {
    const y = f.map((v, j) => v - pressed[j]);
    if (feasible(y, p.fewest.cut)) return { cost: cost(y, p.fewest.cut), y, cut: p.fewest.cut, best: true };
  }
  // Otherwise each ending's plan, the fewest plan's rest and the last hint's plan (so that
  // following hints shortens the plan by one a press), made shorter where they can be.
  bases.push({ cut: p.fewest.cut, y: f.map((v, j) => mod(v - pressed[j], L[j])) });
  if (game.lastPlan) {
    const { y, cut, from } = game.lastPlan;
    bases.push({ cut, y: y.map((v, j) => mod(v + from[j] - pressed[j], L[j])) });
  }
  for (const base of bases) {
    const y = improve(base.y, base.cut, p.basis, L, feasible, cost);
    consider(y, base.cut);
  }
  if (best === null) return null;
  return { ...best, best: false };
}

// Every y + Σ t_g·g (0 ≤ t_g < order_g), each visited once: an odometer whose digit g adds g;
// a digit that wraps has added g order_g times, which is zero.
function walk(base, basis, L, shortestOnly, visit) {
  const n = base.length;
  const small = L.every((l) => l <= 1n << 40n) && n < 4096;
  const y = small ? base.map(Number) : base.slice();
  const gens = basis.map(({ g, order }) => ({ g: small ? g.map(Number) : g, order: Number(order) }));
  const m = small ? L.map(Number) : L;
  const digits = new Array(gens.length).fill(0);
  let bestCost = null;
  for (;;) {
    let total = small ? 0 : 0n;
    for (let j = 0; j < n; j++) total += y[j];
    if (!shortestOnly || bestCost === null || total <= bestCost) {
      bestCost = total;
      visit(small ? y.map((v) => BigInt(v)) : y);
    }
    let d = 0;
    for (; d < gens.length; d++) {
      const g = gens[d].g;
      for (let j = 0; j < n; j++) {
        if (g[j] === 0 || g[j] === 0n) continue;
        const s = y[j] + g[j];
        y[j] = s >= m[j] ? s - m[j] : s;
      }
      if (++digits[d] < gens[d].order) break;
      digits[d] = 0;
    }
    if (d === gens.length) return;
  }
}

// Too many combinations to walk: add multiples of single quiet patterns while the plan gets
// shorter. Every plan it returns solves the puzzle; it need not be a fewest.
function improve(start, cut, basis, L, feasible, cost) {
  const score = (y) => (feasible(y, cut) ? cost(y, cut) : null);
  let y = start.slice();
  let s = score(y);
  for (let round = 0; round < 64; round++) {
    let found = null;
    for (const { g, order } of basis) {
      const tries = [];
      for (let t = 1n; t < order && t <= 16n; t++) tries.push(t, order - t);
      for (const t of tries) {
        const candidate = y.map((v, j) => (g[j] === 0n ? v : (v + t * g[j]) % L[j]));
        const c = score(candidate);
        if (c !== null && (s === null || c < s) && (found === null || c < found.s)) found = { y: candidate, s: c };
      }
    }
    if (!found) break;
    y = found.y;
    s = found.s;
  }
  return y;
}

function hint() {
  if (game.won) {
    say('already solved');
    return;
  }
  const plan = planFromHere();
  if (!plan) {
    game.hint = null;
    say('no plan within the press limits from here: undo or reset');
    render();
    return;
  }
  game.lastPlan = { y: plan.y, cut: plan.cut, from: game.counts.map((c) => BigInt(c)) };
  let j = plan.y.findIndex((v) => v > 0n);
  if (j < 0) j = plan.cut.button;
  game.hint = j;
  const name = buttonName(game.p.board, j);
  const togo = `${plan.cost} to go`;
  say(plan.best ? `best move: press ${name} (${togo})` : `a move that leads to a solution: press ${name} (${togo})`);
  document.body.dataset.hintKind = plan.best ? 'best' : 'solution';
  render();
}

// ---- progress (packs) --------------------------------------------------------------------------

const storageKey = doc.pack === null ? null : `modsolve-pack:${doc.pack}:${doc.levels.map((l) => l.file).join('|')}`;

function loadProgress() {
  if (!storageKey) return { levels: {}, current: 0 };
  try {
    const saved = JSON.parse(localStorage.getItem(storageKey) || 'null');
    if (saved && typeof saved === 'object' && saved.levels) return saved;
  } catch (e) {
    // Unreadable progress starts afresh.
  }
  return { levels: {}, current: 0 };
}

const progress = loadProgress();

function saveProgress() {
  if (!storageKey) return;
  try {
    localStorage.setItem(storageKey, JSON.stringify(progress));
  } catch (e) {
    // Storage may be off (private windows): progress then lasts this visit.
  }
}

function recordWin() {
  const file = game.p.level.file;
  const moves = game.history.length;
  const entry = progress.levels[file] || {};
  if (entry.best === undefined || moves < entry.best) entry.best = moves;
  progress.levels[file] = entry;
  saveProgress();
}

// ---- drawing -----------------------------------------------------------------------------------

function say(text) {
  $('hint-text').textContent = text;
}

function space() {
  const wrap = $('board-wrap');
  return { maxWidth: Math.max(200, wrap.clientWidth - 4), maxHeight: Math.max(240, window.innerHeight - 230) };
}

function render() {
  const p = game.p;
  const board = p.board;
  const state = game.state.map((v, i) => p.drawn(v, i));
  // The hint rings its cell, or its button where the board draws the buttons.
  draw($('board'), board, state, { hint: game.hint, ...space() });
  const buttons = $('buttons');
  buttons.innerHTML = '';
  // Explicit buttons are drawn on the board; listed here only when too many to place.
  if (!board.buttons_are_cells && !(board.layout.buttons || []).length) {
    for (let j = 0; j < board.buttons; j++) {
      const b = document.createElement('button');
      b.textContent = buttonName(board, j);
      b.dataset.button = String(j);
      b.disabled = game.won;
      if (game.hint === j) b.classList.add('hinted');
      b.addEventListener('click', () => press(j));
      buttons.appendChild(b);
    }
  }
  const moves = game.history.length;
  // The par from the start, unless the level keeps it for the win (`hide_par: true`).
  const hidden = board.hide_par && !game.won;
  const par = hidden ? 'par ?' : `par ${p.level.par}${p.level.par_proven ? '' : ' (not proven fewest)'}`;
  $('moves').textContent = `moves ${moves}`;
  $('par').textContent = par;
  $('par').dataset.par = hidden ? '' : p.level.par;
  showLegend(board);
  $('win').hidden = !game.won;
  $('win-text').textContent = `solved in ${moves} (par ${p.level.par})`;
  $('win-note').textContent = BigInt(moves) <= p.par ? ' — perfect!' : '';
  $('undo').disabled = moves === 0;
  $('next-level').hidden = doc.pack === null || game.index + 1 >= doc.levels.length;
  renderPack();
  document.body.dataset.moves = String(moves);
  document.body.dataset.solved = String(game.won);
  document.body.dataset.hint = game.hint === null ? '' : String(game.hint);
  document.body.dataset.level = String(game.index);
}

// What the board's marks mean, under it.
function showLegend(board) {
  const box = $('legend');
  box.innerHTML = '';
  const pixels = $('board')._drawn && $('board')._drawn.pixels;
  const state = game.state.map((v, i) => game.p.drawn(v, i));
  for (const [kind, text] of legend(board, { play: true, hover: false, pixels, state })) {
    const li = document.createElement('li');
    li.dataset.kind = kind;
    li.innerHTML = `<span class="swatch ${kind}"></span>`;
    li.append(text);
    box.appendChild(li);
  }
}

function renderPack() {
  if (doc.pack === null) return;
  const list = $('level-list');
  list.innerHTML = '';
  let solved = 0;
  doc.levels.forEach((level, k) => {
    const li = document.createElement('li');
    const entry = progress.levels[level.file];
    if (entry && entry.best !== undefined) solved++;
    const name = level.board.name || level.file;
    li.textContent = name;
    const note = document.createElement('span');
    note.className = 'note';
    note.textContent = entry && entry.best !== undefined ? `✓ ${entry.best} / par ${level.par}` : `par ${level.par}`;
    li.appendChild(note);
    li.dataset.level = String(k);
    if (k === game.index) li.classList.add('open');
    if (entry && entry.best !== undefined) li.classList.add('solved');
    li.addEventListener('click', () => open(k));
    list.appendChild(li);
  });
  $('progress').textContent = `solved ${solved} of ${doc.levels.length}`;
  $('prev').disabled = game.index === 0;
  $('next').disabled = game.index + 1 >= doc.levels.length;
  document.body.dataset.solvedLevels = String(solved);
}

function open(k) {
  game.index = k;
  game.p = prepare(doc.levels[k]);
  game.history = [];
  game.hint = null;
  game.lastPlan = null;
  say('');
  replay();
  const level = doc.levels[k];
  const name = level.board.name || level.file;
  $('title').textContent = name;
  document.title = doc.pack === null ? name : `${name} — ${doc.pack}`;
  if (doc.pack !== null) {
    progress.current = k;
    saveProgress();
  }
  render();
}

// ---- events --------------------------------------------------------------------------------------

$('board').addEventListener('click', (event) => {
  if (!game.p) return;
  const rect = event.target.getBoundingClientRect();
  const button = pressAt($('board'), game.p.board, event.clientX - rect.left, event.clientY - rect.top);
  if (button !== null) press(button);
});
$('undo').addEventListener('click', undo);
$('reset').addEventListener('click', reset);
$('hint').addEventListener('click', hint);
$('prev').addEventListener('click', () => game.index > 0 && open(game.index - 1));
$('next').addEventListener('click', () => game.index + 1 < doc.levels.length && open(game.index + 1));
$('next-level').addEventListener('click', () => game.index + 1 < doc.levels.length && open(game.index + 1));
document.addEventListener('keydown', (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const action = { u: undo, z: undo, r: reset, h: hint }[event.key];
  if (action) action();
});
window.addEventListener('resize', () => game.p && render());

// The centre of cell `i`, or of placed button `j`, on the screen (for tests and tools driving
// the page); null for a button the board does not draw.
window.player = {
  game,
  drawn: () => $('board')._drawn,
  cellCentre(i) {
    const canvas = $('board'), rect = canvas.getBoundingClientRect();
    const p = cellPoint(canvas, game.p.board, i);
    return { x: rect.left + p.x, y: rect.top + p.y };
  },
  buttonCentre(j) {
    const canvas = $('board'), rect = canvas.getBoundingClientRect();
    const p = buttonPoint(canvas, game.p.board, j);
    return p && { x: rect.left + p.x, y: rect.top + p.y };
  },
};

if (doc.pack !== null) {
  $('pack').hidden = false;
  $('pack-name').textContent = doc.pack;
}
const first = Number.isInteger(progress.current) && progress.current < doc.levels.length ? progress.current : 0;
open(first);
document.body.dataset.ready = '1';
