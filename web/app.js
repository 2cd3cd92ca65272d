// The playground's page: levels of the served folder, the board editor with live analysis,
// play mode with hints, and level generation. Every answer comes from the server's JSON API,
// which speaks the same documents as `modsolve ... --json`.

import { draw, cellAt, cellArrays, setPalette, pressAt, cellPoint, buttonPoint, toUnits, legend } from './board.js';

const $ = (id) => document.getElementById(id);

const app = {
  mode: 'edit',
  file: 'new.ron',
  source: '',
  board: null,      // the board document of /api/analyse
  solve: null,      // the solve document
  check: null,      // the check document
  pressed: [],      // play mode: buttons pressed so far
  state: null,      // play mode: the board after them
  hint: null,       // play mode: the hinted button
  seq: 0,           // the newest analysis asked for; older answers are dropped
  timings: { load: null, edits: [] },
  levels: [],
  preview: null,    // the button under the pointer: its press is shown on the board
  history: { undo: [], redo: [] }, // edit mode: the sources before (and after) each edit
  drag: null,       // edit mode: a cell being moved
  dirty: false,     // edits not saved to the folder since the text was opened or saved
  edgeFrom: null,   // graph editor: the node clicked first, waiting for the second
  edgeFromSeen: 0,  // graph editor: `removed.length` when that node was clicked
  removed: [],      // graph editor: each node removed, numbered as in the graph it left, in order
};
window.playground = app;

// Integers past 2^53 (the moduli, values and press counts of a puzzle with big moduli) would be
// rounded by JSON.parse, and an edit would send every rounded value back: they are read as
// BigInt and written back digit for digit, where the browser can (JSON.parse's source text and
// JSON.rawJSON: Chromium 114, Firefox 135, Safari 18.4).
const exactJson = typeof JSON.rawJSON === 'function';

function parseExact(text) {
  if (!exactJson) return JSON.parse(text);
  return JSON.parse(text, (key, value, context) =>
    typeof value === 'number' && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)
      ? BigInt(context.source)
      : value);
}

function stringifyExact(body) {
  return JSON.stringify(body, (key, value) => (typeof value === 'bigint' ? JSON.rawJSON(String(value)) : value));
}

// `v + 1` modulo `m` (0: no modulus), exact when either is a BigInt.
function nextValue(v, m) {
  if (typeof v === 'number' && typeof m === 'number') return m === 0 ? v + 1 : (v + 1) % m;
  const big = BigInt(m) === 0n ? BigInt(v) + 1n : (BigInt(v) + 1n) % BigInt(m);
  return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}

// The API's token: from the start-up URL `modsolve serve` printed (`?token=…`), kept for this
// tab so that a reload still works, and taken out of the address bar (and so of screenshots
// and shared links).
const token = (() => {
  const params = new URLSearchParams(location.search);
  const given = params.get('token');
  if (given === null) return sessionStorage.getItem('modsolve-token');
  sessionStorage.setItem('modsolve-token', given);
  params.delete('token');
  const rest = params.toString();
  history.replaceState(null, '', location.pathname + (rest ? `?${rest}` : '') + location.hash);
  return given;
})();

async function api(path, body) {
  const headers = token ? { 'x-modsolve-token': token } : {};
  const init = body === undefined ? { headers } : {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: stringifyExact(body),
  };
  const response = await fetch(path, init);
  const type = response.headers.get('content-type') || '';
  const data = type.includes('json') ? parseExact(await response.text()) : await response.text();
  if (!response.ok) {
    const error = new Error(data.error ? data.error.message : String(data));
    error.document = data;
    error.status = response.status;
    throw error;
  }
  return data;
}

// The header's status line: `kind` is busy, ok or error. It says what happened last to the
// puzzle on the board; a mode change clears it, so no message outlives its context.
function status(text, kind = 'busy') {
  const line = $('status');
  line.textContent = text;
  line.title = text;
  line.dataset.kind = kind;
}

// ---- the document: its name in the header, unsaved edits ----------------------------------

function setDocument(file) {
  app.file = file;
  $('file-name').textContent = file;
  $('doc-name').textContent = file;
  document.title = `${file} — modsolve playground`;
  for (const li of $('files').children) li.classList.toggle('open', li.dataset.file === file);
}

function setDirty(dirty) {
  app.dirty = dirty;
  $('dirty').hidden = !dirty;
  document.body.dataset.dirty = String(dirty);
}

// Putting another text in place of one with unsaved edits (opening a file, a new puzzle, an
// uploaded or a generated level) asks first; false when the designer keeps the edits.
function mayDiscard(what) {
  return !app.dirty || window.confirm(`${app.file} has unsaved edits. ${what} and lose them?`);
}

// Leaving the page with unsaved edits asks first.
window.addEventListener('beforeunload', (event) => {
  if (!app.dirty) return;
  event.preventDefault();
  event.returnValue = '';
});

// ---- levels of the folder ------------------------------------------------------------------

function verdict(object) {
  if (object.kind || object.undecided || object.error) return 'fail';
  if (!object.passed) return 'fail';
  // Notes (no-simple-strategy: what makes a puzzle a puzzle) are information, not a verdict.
  const warnings = (object.warnings || []).filter((w) => w.severity !== 'note');
  return warnings.length ? 'warnings' : 'pass';
}

async function listFiles() {
  const list = $('files');
  try {
    const doc = await api('/api/files');
    list.innerHTML = '';
    $('file-count').textContent = `(${doc.files.length})`;
    if (!doc.files.length) list.innerHTML = '<li class="muted">no .ron files</li>';
    for (const object of doc.files) {
      const li = document.createElement('li');
      const v = verdict(object);
      li.dataset.file = object.file;
      li.dataset.verdict = v;
      li.innerHTML = `<span></span><span class="verdict ${v}">${v}</span>`;
      li.firstChild.textContent = object.file;
      li.title = object.error || (object.warnings || []).map((w) => w.message).join('\n');
      li.classList.toggle('open', object.file === app.file);
      li.addEventListener('click', () => openFile(object.file));
      list.appendChild(li);
    }
  } catch (e) {
    list.innerHTML = `<li class="muted">cannot list: ${e.message}</li>`;
  }
}

async function openFile(name) {
  if (name !== app.file && !mayDiscard(`Open ${name}`)) return;
  status(`opening ${name}…`);
  let source;
  try {
    source = await api(`/api/file?path=${encodeURIComponent(name)}`);
  } catch (e) {
    status(`cannot open ${name}: ${e.message}`, 'error');
    return;
  }
  $('save-name').value = name;
  await load(source, name);
}

// ---- analysis ------------------------------------------------------------------------------

async function load(source, file) {
  // Whatever was queued belongs to the text shown before: it is applied (or refused) first.
  await settled();
  setDocument(file);
  setDirty(false);
  $('save-name').value = file;
  app.edgeFrom = null;
  app.source = source;
  app.shown = source;
  $('source').value = source;
  resetPlay();
  app.history = { undo: [], redo: [] };
  showHistory();
  // A newly opened file owns the board only once it reads: until then nothing of the file
  // shown before stays on screen as if it belonged to this one.
  app.fresh = true;
  enqueue({ kind: 'open', source });
  await settled();
}

// Takes the board off the screen (a newly opened file that does not read has none).
function clearBoard() {
  app.board = null;
  app.solve = null;
  const canvas = $('board');
  canvas.getContext('2d').clearRect(0, 0, canvas.width, canvas.height);
  canvas.width = 0;
  canvas.height = 0;
  $('buttons').innerHTML = '';
  $('graph-note').hidden = true;
  $('graph-tool').hidden = true;
}

// What the board area says about the board: nothing (it is this text's), that the text does
// not read and so has no board, or that what is drawn is the last text that did.
function boardNote(kind) {
  const note = $('board-note');
  note.hidden = !kind;
  note.dataset.kind = kind || '';
  if (kind === 'none') note.textContent = `No board: ${app.file} does not read. The error, with its line, is in the Analysis panel.`;
  if (kind === 'stale') note.textContent = 'Last valid board, not this text\'s: the RON source has an error (in the Analysis panel). Fix the text to go on editing.';
}

// ---- the edit queue --------------------------------------------------------------------------
//
// No edit is ever lost: every click, drag, text edit, undo and redo is applied in the order it
// was made, also while an analysis runs. The server writes each edit into the text, one analysis
// at a time, and the next edit starts from the text the last one gave back:
//
// - A value or modulus click and a cell drag change the board on screen at once (`app.board`)
//   and mark their field as touched (`app.touched`). The next request sends the last analysed
//   text with the whole of every touched field, so edits made while a request runs ride on the
//   next one, and an answer never takes back an edit made after its request left.
// - An edit that replaces the text or the board's shape (typing, undo, redo, the graph editor,
//   opening a text) waits its turn in `app.queue`; edits made after it wait behind it, and are
//   worked out on the board it gives.
// - Typing is rebased: what was typed over the text shown is applied to the newest text, so a
//   click answered while the designer types keeps both (when the two touch the same place, the
//   typing wins, as it is what the designer sees).
//
// `settled()` waits for all of it; Save, play, hints, export, generate and opening another text
// wait for it first, so they act on exactly what is on screen.

app.queue = [];        // edits waiting for their turn behind a text or shape change
app.touched = new Set(); // fields changed on screen and not yet sent
app.running = false;   // the queue is being worked through
app.waiters = [];      // settled() promises to resolve when the queue is empty
app.shown = '';        // the text last put in the text box (what typing started from)

function queueLength() {
  return app.queue.length + (app.touched.size ? 1 : 0);
}

function enqueue(op) {
  setDirty(op.kind !== 'open' || app.dirty);
  if (op.kind === 'field' && !app.queue.length && !app.barrier && app.board) {
    // Nothing ahead of it changes the text's shape: shown at once, sent with the next request.
    applyField(op);
  } else {
    app.queue.push(op);
  }
  document.body.dataset.settled = '0';
  if (app.running) status(`analysing… (${queueLength()} edit${queueLength() === 1 ? '' : 's'} waiting)`);
  pump();
}

// Resolves when every edit made so far has been applied (or refused).
function settled() {
  flushTyping();
  if (!app.running && !app.queue.length && !app.touched.size) return Promise.resolve();
  return new Promise((resolve) => app.waiters.push(resolve));
}

// A field edit: `set(board)` changes the board on screen and returns the fields it touched.
function applyField(op) {
  if (!app.board) return;
  for (const f of op.set(app.board)) app.touched.add(f);
  render();
}

async function pump() {
  if (app.running) return;
  app.running = true;
  try {
    for (;;) {
      while (app.queue.length && app.queue[0].kind === 'field') applyField(app.queue.shift());
      if (app.touched.size) {
        await sendFields();
        continue;
      }
      if (!app.queue.length) break;
      const op = app.queue.shift();
      app.barrier = true;
      try {
        await runBarrier(op);
      } finally {
        app.barrier = false;
      }
    }
  } finally {
    app.running = false;
  }
  document.body.dataset.settled = '1';
  const waiters = app.waiters;
  app.waiters = [];
  for (const resolve of waiters) resolve();
}

// The touched fields of the board on screen, written into the last analysed text.
async function sendFields() {
  const fields = [...app.touched];
  app.touched.clear();
  const request = { source: app.source, file: app.file };
  for (const f of fields) request[f] = f === 'layout' ? app.board.layout.centres : app.board[f];
  const before = app.source;
  const doc = await analyse(request);
  if (doc) {
    if (doc.source !== before) pushHistory(before);
  } else {
    // Refused: the fields stay touched (and on screen), to go with the next edit's request.
    for (const f of fields) app.touched.add(f);
  }
}

async function runBarrier(op) {
  if (op.kind === 'open') {
    await analyse({ source: op.source, file: app.file });
  } else if (op.kind === 'text') {
    const before = app.source;
    const source = before === op.base ? op.source : rebase(op.base, op.source, before);
    if (source === before) return;
    const doc = await analyse({ source, file: app.file });
    if (doc) pushHistory(before);
  } else if (op.kind === 'undo' || op.kind === 'redo') {
    const [from, to] = op.kind === 'undo' ? [app.history.undo, app.history.redo] : [app.history.redo, app.history.undo];
    if (!from.length) return;
    const current = app.source;
    const source = from.pop();
    to.push(current);
    showHistory();
    const doc = await analyse({ source, file: app.file });
    if (!doc) {
      // The step did not read (it cannot, as every text in the history did): undo it.
      to.pop();
      from.push(source);
      showHistory();
    }
  } else if (op.kind === 'graph') {
    if (!app.board || !app.board.edges) return;
    // A new graph (`{cells, edges}`) or a node to remove (`{remove_node}`): the server's
    // library writes either into the text.
    const change = op.make(app.board);
    if (!change) return;
    const before = app.source;
    const request = { source: before, file: app.file };
    if ('remove_node' in change) request.remove_node = change.remove_node;
    else request.graph = { cells: change.cells, edges: change.edges };
    const doc = await analyse(request);
    if (doc) pushHistory(before);
    if (doc && 'remove_node' in change) {
      app.removed.push(change.remove_node);
      // A node chosen before this answer keeps its mark under its new number.
      if (app.edgeFrom !== null) {
        app.edgeFrom = nodeNow(app.edgeFrom, app.edgeFromSeen);
        app.edgeFromSeen = app.removed.length;
        render();
      }
    }
  }
}

// A node as numbered on the board drawn when `seen` removals had been applied, numbered in
// today's graph (removals since then renumber the nodes above them); null when it was removed.
// Clicks are on the board drawn, which queued removals have not reached yet.
function nodeNow(node, seen) {
  for (const r of app.removed.slice(seen)) {
    if (node === r) return null;
    if (node > r) node--;
  }
  return node;
}

// Puts `text` in the text box; a caret (or selection) in it keeps its place in the text around
// it, so an answer that lands while the designer is in the box does not move them.
function setSourceBox(text) {
  const box = $('source');
  const old = box.value;
  if (old === text) return;
  const focused = document.activeElement === box;
  const [from, to] = [box.selectionStart, box.selectionEnd];
  box.value = text;
  if (!focused) return;
  const { start, end } = changed(old, text);
  const delta = text.length - old.length;
  const place = (p) => (p >= end ? p + delta : Math.min(p, start));
  box.setSelectionRange(place(from), place(to));
}

// The one run of `a` that `b` replaces, found by the common ends: `a[start..end]` becomes `text`.
function changed(a, b) {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  return { start, end: a.length - end, text: b.slice(start, b.length - end) };
}

// What was typed over `base` (one run of text replaced, found by the common ends) applied to
// `current`, a newer text with its own change to `base`. When the two changes overlap the
// typed text wins whole.
function rebase(base, typed, current) {
  const t = changed(base, typed), c = changed(base, current);
  if (t.end <= c.start) return base.slice(0, t.start) + t.text + base.slice(t.end, c.start) + c.text + base.slice(c.end);
  if (c.end <= t.start) return base.slice(0, c.start) + c.text + base.slice(c.end, t.start) + t.text + base.slice(t.end);
  return typed;
}

// Asks for the analysis of `request` (the last analysed text plus the edits); the answer or
// null when the text does not read.
async function analyse(request, started = performance.now()) {
  const seq = ++app.seq;
  status(queueLength() ? `analysing… (${queueLength()} edit${queueLength() === 1 ? '' : 's'} waiting)` : 'analysing…');
  let doc;
  try {
    doc = await api('/api/analyse', request);
  } catch (e) {
    if (seq !== app.seq) return null;
    showError(e, request.source);
    if (app.fresh) {
      // The file just opened does not read: it has no board to show.
      clearBoard();
      boardNote('none');
    } else {
      // An edit that does not read: what is drawn is of the last good text, shown as stale
      // (and not editable) until the text is fixed.
      document.body.classList.add('stale');
      boardNote('stale');
    }
    $('facts').innerHTML = '';
    $('findings').innerHTML = '';
    document.body.dataset.analysed = String(seq);
    return null;
  }
  if (seq !== app.seq) return null;
  const answered = performance.now();
  app.fresh = false;
  $('error').hidden = true;
  document.body.classList.remove('stale');
  boardNote(null);
  // Edits made while this request ran stay on screen: they go with the next one.
  const shown = app.board;
  app.board = cellArrays(doc.board);
  if (shown && shown.cells === app.board.cells) {
    for (const f of app.touched) {
      if (f === 'layout') app.board.layout.centres = shown.layout.centres;
      else app.board[f] = shown[f];
    }
  }
  app.solve = doc.solve;
  app.source = doc.source;
  // The text box follows, unless the designer is typing in it (the typing is rebased).
  if (!typing && !app.queue.some((op) => op.kind === 'text')) {
    setSourceBox(doc.source);
    app.shown = doc.source;
  }
  if (app.mode === 'play') {
    resetPlay();
  }
  render();
  showFacts();
  const ms = performance.now() - started;
  app.bigTimings = { answer: answered - started, drawn: performance.now() - answered };
  app.timings.edits.push(ms);
  app.lastAnalysisMs = ms;
  status(`analysed in ${ms.toFixed(0)} ms`, 'ok');
  document.body.dataset.analysed = String(seq);
  // The check (macros, strategies: a few hundred milliseconds on a big board) waits for the
  // edits to pause, so it never holds up the next edit's analysis.
  $('findings').innerHTML = '<li class="muted">checking…</li>';
  clearTimeout(app.checkTimer);
  app.checkTimer = setTimeout(() => checkNow(seq), 300);
  return doc;
}

async function checkNow(seq) {
  app.check = null;
  const findings = $('findings');
  if (seq !== app.seq) return;
  if (app.board.cells > 250000) {
    findings.innerHTML = '<li class="muted">check is left out for boards this big</li>';
    return;
  }
  findings.innerHTML = '<li class="muted">checking…</li>';
  try {
    const doc = await api('/api/check', { source: app.source, file: app.file });
    if (seq !== app.seq) return;
    app.check = doc;
    findings.innerHTML = '';
    const row = (cls, text) => {
      const li = document.createElement('li');
      li.className = cls;
      li.textContent = text;
      findings.appendChild(li);
    };
    row(doc.passed ? 'pass' : 'error', doc.passed ? 'check: pass' : 'check: fail');
    for (const w of doc.warnings) row(w.severity, `${w.code}: ${w.message}`);
    if (!doc.warnings.length) row('muted', 'no findings');
    document.body.dataset.checked = String(seq);
  } catch (e) {
    if (seq !== app.seq) return;
    findings.innerHTML = '';
    const li = document.createElement('li');
    li.className = 'error';
    li.textContent = `check: ${e.message}`;
    findings.appendChild(li);
  }
}

// The error as the command line shows it: the message and `--> file:line:column`, wrapped to
// the panel so all of it shows; then the line and a caret, unwrapped (so the caret stays under
// its column) in a strip of its own that scrolls, scrolled to the caret.
function showError(e, source) {
  const box = $('error');
  const err = e.document && e.document.error;
  let text = `error: ${e.message}`;
  let snippet = '';
  if (err && err.line) {
    const line = (source || '').split('\n')[err.line - 1] || '';
    const number = String(err.line);
    const pad = ' '.repeat(number.length);
    text += `\n --> ${err.file || app.file}:${err.line}:${err.column}`;
    snippet = `${pad} |\n${number} | ${line}\n${pad} | ${' '.repeat(Math.max(0, err.column - 1))}^`;
  } else if (err && err.file) {
    text += `\n --> ${err.file}`;
  }
  const message = document.createElement('pre');
  message.className = 'message';
  message.textContent = text;
  box.replaceChildren(message);
  box.hidden = false;
  if (snippet) {
    const strip = document.createElement('pre');
    strip.className = 'snippet';
    strip.textContent = snippet;
    box.append(strip);
    const widest = Math.max(...snippet.split('\n').map((l) => l.length));
    const caret = (String(err.line).length + 3 + err.column) * (strip.scrollWidth / Math.max(1, widest));
    strip.scrollLeft = Math.max(0, caret - strip.clientWidth / 2);
  }
  box.dataset.line = err && err.line ? err.line : '';
  box.dataset.column = err && err.column ? err.column : '';
  status(err && err.line ? `error at line ${err.line}, column ${err.column}` : 'error', 'error');
  document.body.dataset.error = String(app.seq);
}

// `(proven)`, or why not and the proven lower bound: `(not proven: budget-ran-out; at least 96)`.
function parProof(fewest) {
  if (fewest.proven) return '(proven)';
  const bound = fewest.lower_bound === null || fewest.lower_bound === undefined ? '' : `; at least ${fewest.lower_bound}`;
  return `(not proven: ${fewest.proof}${bound})`;
}

function showFacts() {
  const s = app.solve, facts = $('facts');
  const fewest = s.fewest;
  const rows = [
    ['puzzle', `${s.name || app.file} — ${s.cells} cells, ${s.buttons} buttons`],
    ['solvable', s.solvable === null ? 'undecided' : s.solvable ? 'yes' : 'no'],
    ['plans', s.count === null ? '—' : `${s.count}${s.count_exact ? '' : '+'}`],
    ['par', fewest ? `${fewest.total_presses} ${parProof(fewest)}` : '—'],
    ['quiet patterns', s.quiet_patterns === null ? '—' : s.quiet_patterns],
    ['method', `${s.method}${s.elimination ? ' / ' + s.elimination : ''}`],
  ];
  if (s.undecided) rows.push(['undecided', s.undecided]);
  facts.innerHTML = '';
  for (const [k, v] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    dd.dataset.fact = k;
    facts.append(dt, dd);
  }
}

// ---- drawing -------------------------------------------------------------------------------

function boardSpace() {
  const wrap = $('board-wrap');
  return { maxWidth: Math.max(200, wrap.clientWidth - 4), maxHeight: Math.max(240, window.innerHeight - 220) };
}

function render() {
  const board = app.board;
  if (!board) return;
  const play = app.mode === 'play';
  const state = play ? app.state || board.start : board.start;
  const showPlan = !play && $('show-plan').checked && app.solve && app.solve.fewest;
  const plan = showPlan ? app.solve.fewest.presses : null;
  const drawing = graphTool();
  const hint = play && app.hint !== null ? app.hint
    : drawing && app.edgeFrom !== null ? app.edgeFrom : null;
  const edit = app.mode === 'edit' && !drawing ? field() : null;
  const centres = app.drag && app.drag.moved ? app.drag.centres : null;
  draw($('board'), board, state, { plan, hint, edit, preview: app.preview, centres, keep: Boolean(centres), ...boardSpace() });
  showLegend(board, { edit, plan: Boolean(plan), play, pixels: $('board')._drawn.pixels, state });
  const buttons = $('buttons');
  buttons.innerHTML = '';
  // Explicit buttons are drawn on the board; listed here only when too many to place.
  if (!board.buttons_are_cells && !(board.layout.buttons || []).length) {
    const names = board.button_names || [];
    names.forEach((name, j) => {
      const b = document.createElement('button');
      const count = plan ? String(plan[j]) : '0';
      b.textContent = count !== '0' ? `${name} ×${count}` : name;
      b.dataset.button = j;
      b.disabled = !play;
      if (play && app.hint === j) b.classList.add('hinted');
      b.addEventListener('click', () => press(j));
      buttons.appendChild(b);
    });
  }
  document.body.dataset.cells = String(board.cells);
  showGraphEditor();
}

// ---- the graph editor: nodes and edges of a graph drawn without a picture -------------------

// Whether clicks on the board draw the graph (the edges tool of a graph the server can edit).
function graphTool() {
  return app.mode === 'edit' && app.board && app.board.edges && field() === 'edges';
}

function showGraphEditor() {
  const edges = app.board && app.board.edges;
  $('graph-tool').hidden = !edges;
  if (!edges && field() === 'edges') document.querySelector('input[name=field][value=start]').checked = true;
  $('graph-note').hidden = !graphTool();
  if (edges) {
    const from = app.edgeFrom === null ? '' : ` · node ${app.edgeFrom} chosen: click another, or − node to remove it`;
    $('edge-list').textContent = `${app.board.cells} nodes, ${edges.length} edge${edges.length === 1 ? '' : 's'}${edges.length ? ': ' : ''}${edges.map(([a, b]) => `${a}–${b}`).join(', ')}${from}`;
  }
}

// Sends the graph with `cells` nodes and `edges` (the server writes it as `Edges(…)`).
// `make(board)` gives the new graph from the board its turn comes on (edits ahead of it in
// the queue may have changed the graph).
function editGraph(make) {
  app.edgeFrom = null;
  enqueue({ kind: 'graph', make });
}

function addNode() {
  if (!app.board || !app.board.edges) return;
  editGraph((board) => ({ cells: board.cells + 1, edges: board.edges }));
}

// Removes the chosen node (its edges go, the higher nodes are renumbered, and every per-cell
// list of the text loses its entry).
function removeNode() {
  if (!app.board || !app.board.edges) return;
  const [clicked, seen] = [app.edgeFrom, app.edgeFromSeen];
  if (clicked === null) {
    status('click a node first, then − node removes it', 'error');
    return;
  }
  editGraph((board) => {
    const node = nodeNow(clicked, seen);
    return node !== null && node < board.cells && board.cells > 1 ? { remove_node: node } : null;
  });
}

// The first click chooses a node, the second adds the edge between the two (or removes it).
function clickNode(cell) {
  const seen = app.removed.length;
  const first = app.edgeFrom === null ? null : nodeNow(app.edgeFrom, app.edgeFromSeen);
  if (first === null || first === cell) {
    app.edgeFrom = first === cell ? null : cell;
    app.edgeFromSeen = seen;
    render();
    return;
  }
  editGraph((board) => {
    const [x0, y0] = [nodeNow(first, seen), nodeNow(cell, seen)];
    if (x0 === null || y0 === null || Math.max(x0, y0) >= board.cells) return null;
    const [a, b] = [Math.min(x0, y0), Math.max(x0, y0)];
    const edges = board.edges.filter(([x, y]) => !(x === a && y === b));
    if (edges.length === board.edges.length) edges.push([a, b]);
    return { cells: board.cells, edges };
  });
}

$('add-node').addEventListener('click', addNode);
$('remove-node').addEventListener('click', removeNode);
for (const radio of document.querySelectorAll('input[name=field]')) {
  radio.addEventListener('change', () => { app.edgeFrom = null; render(); });
}

// What the board's marks mean, under it.
function showLegend(board, options) {
  let box = $('legend');
  if (!box) {
    box = document.createElement('ul');
    box.id = 'legend';
    $('board-wrap').after(box);
  }
  box.innerHTML = '';
  for (const [kind, text] of legend(board, options)) {
    const li = document.createElement('li');
    li.dataset.kind = kind;
    li.innerHTML = `<span class="swatch ${kind}"></span>`;
    li.append(text);
    box.appendChild(li);
  }
}

// ---- editing -------------------------------------------------------------------------------

function field() {
  return document.querySelector('input[name=field]:checked').value;
}

// Edit history: the text before each applied edit (a run of clicks answered together is one
// step), so that Undo and Redo (Ctrl-Z, Ctrl-Shift-Z, Ctrl-Y) step through the designer's edits.
function pushHistory(source) {
  app.history.undo.push(source);
  app.history.redo = [];
  showHistory();
}

function showHistory() {
  if ($('edit-undo')) $('edit-undo').disabled = !app.history.undo.length;
  if ($('edit-redo')) $('edit-redo').disabled = !app.history.redo.length;
}

// Undo and redo take their turn in the queue: they step from the text the edits before them
// gave.
const undoEdit = () => { if (app.board) { flushTyping(); enqueue({ kind: 'undo' }); } };
const redoEdit = () => { if (app.board) { flushTyping(); enqueue({ kind: 'redo' }); } };

// `v` reduced modulo `m` (0: no modulus), exact when either is a BigInt.
function reduce(v, m) {
  if (typeof v === 'number' && typeof m === 'number') return m === 0 ? v : v % m;
  const big = BigInt(m) === 0n ? BigInt(v) : BigInt(v) % BigInt(m);
  return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}

// A click in Edit: the chosen field of `cell` steps on (a modulus cycles 2..9), worked out on
// the board its turn comes on.
function edit(cell) {
  const which = field();
  flushTyping();
  enqueue({
    kind: 'field',
    set(board) {
      if (cell >= board.cells) return [];
      if (which === 'moduli') {
        const moduli = board.moduli.slice();
        const m = moduli[cell];
        moduli[cell] = Number(m) >= 9 ? 2 : Number(m) + 1;
        board.moduli = moduli;
        const touched = ['moduli'];
        // Start and target are reduced by the new modulus, as the server does.
        for (const f of ['start', 'target']) {
          const v = reduce(board[f][cell], moduli[cell]);
          if (v !== board[f][cell]) {
            board[f] = board[f].slice();
            board[f][cell] = v;
            touched.push(f);
          }
        }
        return touched;
      }
      const values = board[which].slice();
      values[cell] = nextValue(values[cell], board.moduli[cell]);
      board[which] = values;
      return [which];
    },
  });
}

function pointer(event) {
  const rect = $('board').getBoundingClientRect();
  return { x: event.clientX - rect.left, y: event.clientY - rect.top };
}

$('board').addEventListener('click', (event) => {
  // A board shown as stale is of the last text that read: it takes no edits.
  if (!app.board || document.body.classList.contains('stale')) return;
  if (app.dragged) {
    app.dragged = false;
    return;
  }
  const { x, y } = pointer(event);
  if (graphTool()) {
    const cell = cellAt($('board'), app.board, x, y);
    if (cell === null) addNode();
    else clickNode(cell);
    return;
  }
  if (app.mode === 'edit') {
    const cell = cellAt($('board'), app.board, x, y);
    if (cell !== null) edit(cell);
  } else if (app.mode === 'play') {
    const button = pressAt($('board'), app.board, x, y);
    if (button !== null) press(button);
  }
});

// Dragging a cell in Edit (layouts a designer may move): the new place is written back to the
// file as `layout:`, a position per cell.
$('board').addEventListener('mousedown', (event) => {
  const board = app.board;
  if (!board || app.mode !== 'edit' || !board.layout.movable || !board.layout.centres) return;
  const { x, y } = pointer(event);
  const cell = cellAt($('board'), board, x, y);
  if (cell === null) return;
  app.drag = { cell, x, y, moved: false, centres: board.layout.centres.map((p) => p.slice()) };
});

window.addEventListener('mousemove', (event) => {
  const board = app.board;
  if (!board) return;
  const { x, y } = pointer(event);
  const drag = app.drag;
  if (drag) {
    if (!drag.moved && Math.hypot(x - drag.x, y - drag.y) < 5) return;
    drag.moved = true;
    const [ux, uy] = toUnits($('board'), x, y);
    drag.centres[drag.cell] = [ux, uy];
    render();
    return;
  }
  if (event.target !== $('board')) {
    if (app.preview !== null) {
      app.preview = null;
      render();
    }
    return;
  }
  const over = pressAt($('board'), board, x, y);
  if (over !== app.preview) {
    app.preview = over;
    render();
  }
});

window.addEventListener('mouseup', () => {
  const drag = app.drag;
  app.drag = null;
  if (!drag || !drag.moved) return;
  app.dragged = true;
  setTimeout(() => { app.dragged = false; }, 0);
  const round = (v) => Math.round(v * 100) / 100;
  flushTyping();
  // The dragged cell goes where it was dropped; the others stay where the board then has them.
  const to = drag.centres[drag.cell].map(round);
  enqueue({
    kind: 'field',
    set(board) {
      if (!board.layout.centres || drag.cell >= board.cells) return [];
      const centres = board.layout.centres.map(([px, py]) => [round(px), round(py)]);
      centres[drag.cell] = to;
      board.layout = { ...board.layout, centres };
      return ['layout'];
    },
  });
});

$('board').addEventListener('mouseleave', () => {
  if (app.preview !== null && !app.drag) {
    app.preview = null;
    render();
  }
});

document.addEventListener('keydown', (event) => {
  if (app.mode !== 'edit' || !(event.ctrlKey || event.metaKey)) return;
  if (event.target.closest && event.target.closest('textarea, input')) return;
  const key = event.key.toLowerCase();
  if (key === 'z' && !event.shiftKey) undoEdit();
  else if ((key === 'z' && event.shiftKey) || key === 'y') redoEdit();
  else return;
  event.preventDefault();
});
if ($('edit-undo')) $('edit-undo').addEventListener('click', undoEdit);
if ($('edit-redo')) $('edit-redo').addEventListener('click', redoEdit);
for (const input of document.querySelectorAll('input[name=field]')) input.addEventListener('change', render);

// Typing is analysed once it pauses for 250 ms, or at once when another edit, Save or a change
// of text comes first; it is queued with the text it started from, to be rebased.
let typing = null;
function flushTyping() {
  if (typing === null) return;
  clearTimeout(typing);
  typing = null;
  resetPlay();
  enqueue({ kind: 'text', source: $('source').value, base: app.shown });
}
$('source').addEventListener('input', () => {
  clearTimeout(typing);
  setDirty(true);
  typing = setTimeout(flushTyping, 250);
});
$('show-plan').addEventListener('change', render);

// ---- play ----------------------------------------------------------------------------------

function resetPlay() {
  app.pressed = [];
  app.state = null;
  app.hint = null;
  $('hint-text').textContent = '';
  $('win').hidden = true;
  $('moves').textContent = 'moves 0';
  showGoal(false);
}

// The par, from the start (unless the level hides it until won), and a notice on a level
// no plan solves.
function showGoal(solved) {
  const fewest = app.solve && app.solve.fewest;
  const hidden = app.board && app.board.hide_par && !solved;
  $('play-par').textContent = !fewest ? '' : hidden ? 'par ?' : `par ${fewest.total_presses}${fewest.proven ? '' : ' (not proven fewest)'}`;
  $('play-par').dataset.par = fewest && !hidden ? String(fewest.total_presses) : '';
  $('unsolvable').hidden = !(app.mode === 'play' && app.solve && app.solve.solvable === false);
}

async function replay() {
  await settled();
  const doc = await api('/api/state', { source: app.source, file: app.file, pressed: app.pressed });
  app.state = doc.state;
  $('moves').textContent = `moves ${app.pressed.length}`;
  const par = app.solve && app.solve.fewest ? app.solve.fewest.total_presses : null;
  showGoal(doc.solved);
  $('win').hidden = !doc.solved;
  if (doc.solved) {
    $('win-text').textContent = par === null ? `in ${app.pressed.length} moves`
      : `in ${app.pressed.length} moves (par ${par}${app.pressed.length <= par ? ' — perfect!' : ''})`;
    status(`solved in ${app.pressed.length} moves`, 'ok');
  }
  render();
  document.body.dataset.moves = String(app.pressed.length);
  document.body.dataset.solved = String(doc.solved);
}

async function press(button) {
  if (!$('win').hidden) return;
  app.pressed.push(button);
  app.hint = null;
  $('hint-text').textContent = '';
  await replay();
}

$('undo').addEventListener('click', async () => {
  app.pressed.pop();
  app.hint = null;
  await replay();
});
$('reset').addEventListener('click', async () => {
  resetPlay();
  await replay();
});
$('hint').addEventListener('click', async () => {
  $('hint-text').textContent = 'thinking…';
  try {
    await settled();
    const doc = await api('/api/hint', { source: app.source, file: app.file, pressed: app.pressed });
    if (doc.solved) {
      $('hint-text').textContent = 'already solved';
    } else if (doc.next) {
      app.hint = doc.next.button;
      // A button drawn on the board is named as it is drawn there (`button 4`, not `4`).
      const placed = (app.board.layout.buttons || [])[doc.next.button];
      const name = placed ? placed.name : doc.next.name;
      $('hint-text').textContent = `press ${name} (${doc.par} to go${doc.par_proven ? '' : ', not proven fewest'})`;
    } else if (doc.solvable === false) {
      $('hint-text').textContent = 'no plan solves it from here';
    } else {
      $('hint-text').textContent = `undecided: ${doc.undecided}`;
    }
    document.body.dataset.hint = app.hint === null ? '' : String(app.hint);
    render();
  } catch (e) {
    $('hint-text').textContent = e.message;
  }
});

// ---- export --------------------------------------------------------------------------------

// The level as one HTML page that plays offline (`modsolve export FILE --html`), downloaded.
$('export').addEventListener('click', async () => {
  try {
    await settled();
    const html = await api('/api/export', { source: app.source, file: app.file });
    const url = URL.createObjectURL(new Blob([html], { type: 'text/html' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${app.file.replace(/^.*\//, '').replace(/\.ron$/, '') || 'level'}.html`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    status(`exported ${link.download}`);
  } catch (e) {
    status(e.message);
  }
});

// ---- modes ---------------------------------------------------------------------------------

function setMode(mode) {
  app.mode = mode;
  document.body.dataset.mode = mode;
  // The last message belongs to the mode left.
  status('');
  app.edgeFrom = null;
  for (const b of document.querySelectorAll('#modes button')) b.classList.toggle('active', b.dataset.mode === mode);
  $('edit-tools').hidden = mode !== 'edit';
  $('play-tools').hidden = mode !== 'play';
  $('unsolvable').hidden = true;
  $('generate').hidden = mode !== 'generate';
  resetPlay();
  if (mode === 'play' && app.board) replay();
  render();
}
for (const b of document.querySelectorAll('#modes button')) b.addEventListener('click', () => setMode(b.dataset.mode));

// ---- new puzzles, files --------------------------------------------------------------------

// The template form shows the fields of the chosen form only (a stencil's picture only for
// the Stencil neighbourhood).
function templateFields() {
  const form = $('template');
  const kind = form.elements.form.value;
  for (const label of form.querySelectorAll('label[data-forms]')) {
    const forms = label.dataset.forms.split(' ');
    label.hidden = forms.includes('stencil')
      ? !(kind === 'grid' && form.elements.neighborhood.value === 'Stencil')
      : !forms.includes(kind);
  }
}
$('template').elements.form.addEventListener('change', templateFields);
$('template').elements.neighborhood.addEventListener('change', templateFields);

// Picture rows of a textarea (`#`, `.`, `x`, `o`), blank lines and spaces dropped.
function pictureRows(text) {
  return text.split('\n').map((line) => line.replace(/\s+/g, '')).filter((line) => line.length);
}


// Buttons written one a line: `0 1 2*3` adds 1 to cells 0 and 1 and 3 to cell 2.
function buttonLines(text, cells) {
  const lines = text.split('\n').map((line) => line.trim()).filter((line) => line.length);
  if (!lines.length) {
    // None written: button j adds 1 to cells j and j + 1 (a chain).
    return Array.from({ length: cells }, (_, j) => (cells > 1 && j + 1 < cells ? [[j, 1], [j + 1, 1]] : [[j, 1]]));
  }
  return lines.map((line) => line.split(/[\s,]+/).filter((t) => t).map((token) => {
    const [cell, amount] = token.split(/[*:×]/);
    return [cell, amount === undefined ? '1' : amount];
  }));
}

// The RON text and file name of a new puzzle of the form's kind, made by the library
// (`POST /api/new`, as `modsolve new` makes it). The page's new puzzles start at 1 everywhere.
async function templateSource(form) {
  const f = new FormData(form);
  const kind = f.get('form') || 'grid';
  const text = (name) => String(f.get(name) || '').trim();
  const number = (name) => (/^-?\d+$/.test(text(name)) ? Number(text(name)) : Number(text(name)) || 0);
  const request = {
    form: kind,
    rows: number('rows'), cols: number('cols'), size: number('size'), cells: number('cells'),
    modulus: text('modulus') || '2',
    self: number('self'), neighbors: number('neighbors'),
    start: 1,
  };
  if (kind === 'grid') {
    request.wrap = Boolean(f.get('wrap'));
    request.neighborhood = f.get('neighborhood') || 'Cross';
    if (request.neighborhood === 'Stencil') request.stencil = pictureRows(f.get('stencil') || '');
  }
  if (kind === 'grid' || kind === 'hex') request.mask = pictureRows(f.get('mask') || '');
  if (kind === 'explicit' && text('buttons')) {
    request.buttons = buttonLines(text('buttons'), request.cells).map((b) => b.map(([c, a]) => [Number(c), Number(a)]));
  }
  const doc = await api('/api/new', request);
  return { source: doc.source, file: doc.file };
}

$('template').addEventListener('submit', async (event) => {
  event.preventDefault();
  let made;
  try {
    made = await templateSource(event.target);
  } catch (e) {
    status(`cannot make the new puzzle: ${e.message}`, 'error');
    return;
  }
  const { source, file } = made;
  if (!mayDiscard(`Start ${file}`)) return;
  $('save-name').value = file;
  // load() applies the edits still queued first: a new puzzle drops none of them.
  await load(source, file);
});

$('upload').addEventListener('change', async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  if (!mayDiscard(`Open ${file.name}`)) {
    event.target.value = '';
    return;
  }
  $('save-name').value = file.name;
  await load(await file.text(), file.name);
});

$('download').addEventListener('click', () => {
  const blob = new Blob([$('source').value], { type: 'text/plain' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = $('save-name').value || app.file;
  a.click();
  URL.revokeObjectURL(a.href);
});

$('save').addEventListener('click', async () => {
  // Every edit made before the click is in what is saved.
  status('saving…');
  await settled();
  const path = $('save-name').value.trim();
  const source = $('source').value;
  try {
    await api('/api/save', { path, source, overwrite: $('overwrite').checked });
    // The board is now that file's: the header follows, and the edits are saved (unless more
    // were made while it saved).
    setDocument(path);
    if ($('source').value === source && !queueLength() && !app.running && typing === null) setDirty(false);
    status(`saved ${path}`, 'ok');
    await listFiles();
  } catch (e) {
    status(`cannot save ${path}: ${e.message}`, 'error');
  }
});
$('refresh').addEventListener('click', listFiles);

// ---- generate ------------------------------------------------------------------------------

$('spec').addEventListener('submit', async (event) => {
  event.preventDefault();
  await settled();
  const f = new FormData(event.target);
  const low = f.get('par_low'), high = f.get('par_high');
  const spec = {
    source: app.source,
    file: app.file,
    count: Number(f.get('count')),
    seed: Number(f.get('seed')),
    unique: Boolean(f.get('unique')),
  };
  if (low || high) spec.par = [Number(low || 1), Number(high || low)];
  if (f.get('strategy')) spec.strategy = f.get('strategy');
  if (f.get('scramble')) spec.scramble = Number(f.get('scramble'));
  if (f.get('attempts')) spec.attempts = Number(f.get('attempts'));
  const out = $('levels');
  const advice = $('gen-advice');
  out.innerHTML = '';
  advice.hidden = true;
  advice.className = 'advice';
  $('gen-status').textContent = 'generating…';
  $('save-levels').disabled = true;
  app.levels = [];
  let words = null;
  try {
    const doc = await api('/api/generate', spec);
    app.levels = doc.levels;
    doc.levels.forEach((level, k) => out.appendChild(thumbnail(level, k)));
    $('gen-status').textContent = `${doc.found} of ${spec.count} level${spec.count === 1 ? '' : 's'} from ${doc.tried} candidates`;
    $('save-levels').disabled = !doc.levels.length;
    // Fewer than asked for: the command line's advice, then what the histogram shows.
    words = doc.advice || null;
    document.body.dataset.generated = String(doc.found);
  } catch (e) {
    // A spec that can never be met: the command line's reason.
    $('gen-status').textContent = 'refused';
    words = e.message;
    advice.classList.add('error');
    document.body.dataset.generated = 'refused';
  }
  if (words) {
    advice.textContent = words;
    advice.hidden = false;
  }
  const pars = await histogram();
  if (words && pars.length) {
    advice.textContent = `${words}. Random solvable starts of this template have par ${pars[0]}–${pars[pars.length - 1]} (the histogram below).`;
  }
  document.body.dataset.advice = advice.hidden ? '' : '1';
});

function thumbnail(level, k) {
  const box = document.createElement('div');
  box.className = 'level';
  const canvas = document.createElement('canvas');
  const board = { ...app.board, start: level.start };
  draw(canvas, board, level.start, { maxWidth: 120, maxHeight: 120 });
  const label = document.createElement('label');
  label.innerHTML = `<input type="checkbox" checked data-level="${k}"> par ${level.par} · ${level.count} plan${level.count === '1' ? '' : 's'}`;
  canvas.title = 'open this level';
  canvas.addEventListener('click', () => {
    if (!mayDiscard(`Open ${level.file}`)) return;
    setMode('edit');
    load(level.source, level.file);
  });
  box.append(canvas, label);
  return box;
}

$('save-levels').addEventListener('click', async () => {
  const prefix = $('level-prefix').value.trim() || 'level';
  const chosen = [...document.querySelectorAll('#levels input[data-level]')].filter((c) => c.checked);
  let saved = 0;
  for (const c of chosen) {
    const level = app.levels[Number(c.dataset.level)];
    const path = `${prefix}-${String(Number(c.dataset.level) + 1).padStart(4, '0')}.ron`;
    try {
      await api('/api/save', { path, source: level.source, overwrite: $('overwrite').checked });
      saved++;
    } catch (e) {
      $('gen-status').textContent = `cannot save ${path}: ${e.message}`;
    }
  }
  if (saved === chosen.length) $('gen-status').textContent = `saved ${saved} level${saved === 1 ? '' : 's'} as ${prefix}-0001.ron, …`;
  document.body.dataset.saved = String(saved);
  listFiles();
});

async function histogram() {
  const canvas = $('histogram');
  const ctx = canvas.getContext('2d');
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  try {
    await settled();
    const doc = await api('/api/histogram', { source: app.source, file: app.file, samples: 200 });
    const entries = Object.entries(doc.par).map(([p, n]) => [Number(p), n]).sort((a, b) => a[0] - b[0]);
    if (!entries.length) return [];
    const most = Math.max(...entries.map((e) => e[1]));
    const w = canvas.width / entries.length;
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'center';
    entries.forEach(([p, n], k) => {
      const h = (canvas.height - 30) * n / most;
      ctx.fillStyle = '#2563eb';
      ctx.fillRect(k * w + 2, canvas.height - 16 - h, w - 4, h);
      ctx.fillStyle = '#e2e8f0';
      ctx.fillText(String(p), k * w + w / 2, canvas.height - 4);
      ctx.fillText(String(n), k * w + w / 2, canvas.height - 20 - h);
    });
    document.body.dataset.histogram = String(entries.length);
    return entries.map(([p]) => p);
  } catch (e) {
    ctx.fillStyle = '#e2e8f0';
    ctx.fillText(e.message, 10, 20);
    return [];
  }
}

// ---- start ---------------------------------------------------------------------------------

async function start() {
  const t0 = performance.now();
  let doc;
  try {
    doc = await api('/api/palette');
  } catch (e) {
    // Opened without the token (or from a name the server does not answer to): say how to open it.
    status(e.message, 'error');
    $('files').textContent = '';
    const li = document.createElement('li');
    li.className = 'refused';
    li.textContent = e.message;
    $('files').append(li);
    document.body.dataset.ready = 'refused';
    return;
  }
  setPalette(doc.palette, doc.text_cell_limit);
  templateFields();
  const wanted = new URLSearchParams(location.search).get('file');
  listFiles();
  if (wanted) {
    await openFile(wanted);
  } else {
    const { source, file } = await templateSource($('template'));
    await load(source, file);
  }
  app.timings.load = performance.now() - t0;
  // Since navigation started: the page loaded, the board drawn and taking clicks.
  app.timings.interactive = performance.now();
  document.body.dataset.ready = '1';
}
window.addEventListener('resize', render);

// The centre of cell `i` (and of placed button `j`) on the screen, and what the board drew
// (centres, edges, labels, buttons), for tests and tools driving the page.
app.cellCentre = (i) => {
  const canvas = $('board'), rect = canvas.getBoundingClientRect();
  const p = cellPoint(canvas, app.board, i);
  return { x: rect.left + p.x, y: rect.top + p.y };
};
app.buttonCentre = (j) => {
  const canvas = $('board'), rect = canvas.getBoundingClientRect();
  const p = buttonPoint(canvas, app.board, j);
  return p && { x: rect.left + p.x, y: rect.top + p.y };
};
app.drawn = () => $('board')._drawn;
start();
