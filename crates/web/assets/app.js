// nimlab explorer: plain JavaScript, no build step. Every value comes from /api.
"use strict";

const $ = (id) => document.getElementById(id);

async function api(path, body) {
  const res = await fetch("/api/" + path, body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await res.json();
  if (!res.ok) throw new Error(data.error ? data.error.message : res.statusText);
  return data;
}

// ---- the game of the page -------------------------------------------------

let catalog = [];

/** The request fields naming the game: the spec (wrapped) or the pasted rules. */
function gameFields() {
  const rules = $("rules").value.trim();
  if ($("rules-box").open && rules) return { rules };
  return { game: currentSpec() };
}

function currentSpec() {
  let spec = $("spec").value.trim();
  if ($("pass").checked) spec = `pass(${spec})`;
  if ($("misere").checked) spec = `misere(${spec})`;
  return spec;
}

function specFromFamily() {
  const f = catalog.find((g) => g.name === $("family").value);
  if (!f) return;
  const args = [];
  for (const p of f.parameters) {
    const v = $("param-" + p.name).value.trim() || p.default;
    if (v) args.push(`${p.name}=${v}`);
  }
  $("spec").value = args.length ? `${f.name}(${args.join(",")})` : f.name;
}

function showParams() {
  const f = catalog.find((g) => g.name === $("family").value);
  const box = $("params");
  box.innerHTML = "";
  if (!f) return;
  for (const p of f.parameters) {
    const label = document.createElement("label");
    label.textContent = `${p.name} `;
    const input = document.createElement("input");
    input.id = "param-" + p.name;
    input.placeholder = p.default || p.kind;
    input.title = p.help;
    input.addEventListener("change", specFromFamily);
    label.appendChild(input);
    box.appendChild(label);
  }
}

// ---- heatmap --------------------------------------------------------------

const view = {
  table: null, // {dims, values (flat, first coordinate fastest)}
  zoom: 1, panX: 0, panY: 0,
  selected: null, // [x, y]
  highlighted: { winning: [], others: [] },
  mismatches: [],
  fixed: [], // the slice: coordinates beyond the first two
};

function flatten(values, dims) {
  // values nested with the last coordinate outermost: flatten in storage order.
  const out = [];
  const walk = (v) => (Array.isArray(v) ? v.forEach(walk) : out.push(v));
  walk(values);
  return out;
}

function valueAt(x, y) {
  const t = view.table;
  if (!t) return undefined;
  const d = t.dims;
  const pos = [x, y, ...view.fixed].slice(0, d.length);
  let idx = 0, stride = 1;
  for (let i = 0; i < d.length; i++) {
    const c = pos[i] || 0;
    if (c < 0 || c >= d[i]) return undefined;
    idx += c * stride;
    stride *= d[i];
  }
  return t.values[idx];
}

function cellSize() {
  const t = view.table;
  const w = t.dims[0], h = t.dims.length > 1 ? t.dims[1] : 1;
  return (560 / Math.max(w, h)) * view.zoom;
}

/** Canvas pixel of the lower-left corner of cell (x, y); y grows upward. */
function cellOrigin(x, y) {
  const s = cellSize();
  return [view.panX + x * s, 560 - view.panY - (y + 1) * s];
}

function colour(v, max) {
  if (v === null || v === undefined) return "#ccc";
  if (v === 0) return "#111";
  const t = Math.min(1, v / Math.max(1, max));
  return `hsl(${240 - 200 * t}, 75%, ${35 + 25 * t}%)`;
}

function draw() {
  const c = $("heatmap"), g = c.getContext("2d");
  g.clearRect(0, 0, c.width, c.height);
  const t = view.table;
  if (!t) return;
  const s = cellSize();
  const w = t.dims[0], h = t.dims.length > 1 ? t.dims[1] : 1;
  const max = t.max;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const [px, py] = cellOrigin(x, y);
      if (px > 560 || py > 560 || px + s < 0 || py + s < 0) continue;
      const v = valueAt(x, y);
      g.fillStyle = colour(v, max);
      g.fillRect(px, py, s + 0.5, s + 0.5);
      if (s >= 18 && v !== null && v !== undefined) {
        g.fillStyle = v === 0 ? "#fff" : "#000";
        g.font = `${Math.min(14, s * 0.5)}px monospace`;
        g.textAlign = "center";
        g.textBaseline = "middle";
        g.fillText(String(v), px + s / 2, py + s / 2);
      }
    }
  }
  const outline = (cells, style, width) => {
    g.strokeStyle = style;
    g.lineWidth = width;
    for (const [x, y] of cells) {
      const [px, py] = cellOrigin(x, y);
      g.strokeRect(px + width / 2, py + width / 2, s - width, s - width);
    }
  };
  outline(view.mismatches, "#f00", Math.max(2, s / 6));
  outline(view.highlighted.others, "#fff", 1.5);
  outline(view.highlighted.winning, "#0f0", Math.max(2, s / 5));
  if (view.selected) outline([view.selected], "#ff0", Math.max(2, s / 5));
}

function cellAt(ev) {
  const c = $("heatmap"), r = c.getBoundingClientRect();
  const px = ((ev.clientX - r.left) * c.width) / r.width;
  const py = ((ev.clientY - r.top) * c.height) / r.height;
  const s = cellSize();
  return [Math.floor((px - view.panX) / s), Math.floor((560 - py - view.panY) / s)];
}

/** Page coordinates of the centre of cell (x, y) (used by tests and links). */
function cellCenter(x, y) {
  const c = $("heatmap");
  c.scrollIntoView({ block: "nearest" });
  const r = c.getBoundingClientRect();
  const s = cellSize();
  const [px, py] = cellOrigin(x, y);
  return [r.left + ((px + s / 2) * r.width) / c.width, r.top + ((py + s / 2) * r.height) / c.height];
}

async function showTable() {
  const size = parseInt($("size").value, 10) || 16;
  $("table-info").textContent = "computing…";
  $("check-result").textContent = "";
  view.mismatches = [];
  view.selected = null;
  view.highlighted = { winning: [], others: [] };
  try {
    const info = await api("game", gameFields());
    view.info = info;
    const t = await api("table", { ...gameFields(), size });
    const values = flatten(t.values, t.box);
    view.table = { dims: t.box, values, max: values.reduce((m, v) => (v !== null && v > m ? v : m), 0) };
    view.fixed = ($("slice").value.trim() ? $("slice").value.split(",").map((s) => parseInt(s, 10) || 0) : [])
      .concat(new Array(Math.max(0, t.box.length - 2)).fill(0)).slice(0, Math.max(0, t.box.length - 2));
    view.zoom = 1; view.panX = 0; view.panY = 0;
    $("heatmap").dataset.cells = String(values.length);
    $("table-info").textContent = `${t.game}: box ${t.box.join("×")}, coordinates ${info.coordinate_names.join(", ")}; method ${t.method} — ${t.method_detail}`;
    draw();
    updateHash();
  } catch (e) {
    $("table-info").innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
  }
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

function positionOf(x, y) {
  return [x, y, ...view.fixed].slice(0, view.table.dims.length);
}

async function selectCell(x, y) {
  const t = view.table;
  if (!t || x < 0 || y < 0 || x >= t.dims[0] || y >= (t.dims[1] || 1)) return;
  view.selected = [x, y];
  const pos = positionOf(x, y);
  try {
    const r = await api("moves", { ...gameFields(), position: pos.join(",") });
    const winning = [], others = [];
    const list = $("options");
    list.innerHTML = "";
    const same = (p) => p.length === pos.length && p.slice(2).every((c, i) => c === pos[i + 2]);
    for (const o of r.options || []) {
      const li = document.createElement("li");
      li.textContent = `${o.position.join(",")}  G = ${o.grundy ?? "?"}${o.winning ? "  ← winning" : ""}`;
      if (o.winning) li.className = "winning";
      list.appendChild(li);
      if (Array.isArray(o.position) && same(o.position)) (o.winning ? winning : others).push([o.position[0], o.position[1] ?? 0]);
    }
    view.highlighted = { winning, others };
    $("cell-info").innerHTML = `<b>${escapeHtml(pos.join(","))}</b>: G = ${r.grundy ?? "?"}, ${r.outcome}` +
      `-position; ${(r.options || []).length} options, ${r.winning_moves.length} winning` +
      (r.options_note ? `<br><i>${escapeHtml(r.options_note)}</i>` : "");
    nimSumPanel(pos);
    draw();
  } catch (e) {
    $("cell-info").innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
  }
}

/** When the table is the nim-sum of its row 0 and column 0 (a sum of two games, Nim),
 *  show the components' values in binary and their nim-sum. Decided from the data. */
function nimSumPanel(pos) {
  const t = view.table, box = $("nimsum");
  box.textContent = "";
  if (!t || t.dims.length !== 2) return;
  const [w, h] = t.dims;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const v = valueAt(x, y), a = valueAt(x, 0), b = valueAt(0, y);
    if (v === null || a === null || b === null || v !== (a ^ b)) return;
  }
  const a = valueAt(pos[0], 0), b = valueAt(0, pos[1]);
  const bits = Math.max(1, (a | b).toString(2).length);
  const bin = (n) => n.toString(2).padStart(bits, "0");
  box.textContent = `nim-sum (binary)\n  G(${pos[0]},0) = ${bin(a)}  (${a})\n⊕ G(0,${pos[1]}) = ${bin(b)}  (${b})\n  ${"".padEnd(8 + String(pos[0]).length, " ")}${"-".repeat(bits)}\n  G = ${"".padEnd(5 + String(pos[0]).length, " ")}${bin(a ^ b)}  (${a ^ b})` +
    ((a ^ b) === 0 ? "\n  0: a P-position" : "\n  winning: make the sum 0");
}

function setupHeatmap() {
  const c = $("heatmap");
  let drag = null;
  c.addEventListener("mousemove", (ev) => {
    if (drag) {
      const r = c.getBoundingClientRect();
      view.panX += ((ev.clientX - drag.x) * c.width) / r.width;
      view.panY -= ((ev.clientY - drag.y) * c.height) / r.height;
      drag.moved = drag.moved || Math.abs(ev.clientX - drag.x) + Math.abs(ev.clientY - drag.y) > 3;
      drag.x = ev.clientX; drag.y = ev.clientY;
      draw();
      return;
    }
    if (!view.table) return;
    const [x, y] = cellAt(ev);
    const v = valueAt(x, y);
    $("hover").textContent = v === undefined ? " " : `(${positionOf(x, y).join(",")})  G = ${v === null ? "not a position" : v}`;
  });
  c.addEventListener("mousedown", (ev) => { drag = { x: ev.clientX, y: ev.clientY, moved: false }; });
  window.addEventListener("mouseup", (ev) => {
    if (drag && !drag.moved && ev.target === c) {
      const [x, y] = cellAt(ev);
      selectCell(x, y);
    }
    drag = null;
  });
  c.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const r = c.getBoundingClientRect();
    const px = ((ev.clientX - r.left) * c.width) / r.width;
    const py = 560 - ((ev.clientY - r.top) * c.height) / r.height;
    const f = ev.deltaY < 0 ? 1.25 : 0.8;
    view.panX = px - (px - view.panX) * f;
    view.panY = py - (py - view.panY) * f;
    view.zoom *= f;
    draw();
  }, { passive: false });
}

// ---- formula check --------------------------------------------------------

async function checkFormula() {
  const text = $("formula").value.trim();
  const claim = document.querySelector("input[name=claim]:checked").value;
  const out = $("check-result");
  if (!view.table) await showTable();
  try {
    const size = parseInt($("size").value, 10) || 16;
    const body = { ...gameFields(), size, limit: 100000 };
    if (text) body[claim] = text;
    const r = await api("check", body);
    view.mismatches = r.mismatches
      .filter((m) => m.position.slice(2).every((c, i) => c === view.fixed[i]))
      .map((m) => [m.position[0], m.position[1] ?? 0]);
    out.className = r.holds ? "good" : "bad";
    out.textContent = r.holds
      ? `holds on all ${r.checked} positions`
      : `${r.mismatch_count} mismatch${r.mismatch_count === 1 ? "" : "es"} in ${r.checked} positions (outlined in red); first at ${r.mismatches[0].position.join(",")}: G = ${r.mismatches[0].grundy}, formula ${r.mismatches[0].formula}`;
    draw();
  } catch (e) {
    out.className = "bad";
    out.textContent = e.message;
  }
}

// ---- proof for every position (automata) -----------------------------------

async function proveFormula() {
  const text = $("formula").value.trim();
  const claim = document.querySelector("input[name=claim]:checked").value;
  const out = $("check-result");
  out.className = "";
  out.textContent = "proving…";
  try {
    const body = { ...gameFields(), numeration: $("numeration").value };
    if (text) body[claim] = text;
    const r = await api("prove", body);
    const res = r.result;
    out.className = res.proved ? "good" : "bad";
    if (res.proved) {
      out.textContent = `proved for all positions (${r.statements.length} statements, ${r.seconds.toFixed(3)} s)`;
    } else {
      const again = res.confirmed ? ` — the solver: at ${res.confirmed.position.join(",")}: ${res.confirmed.why}` : "";
      out.textContent = `false (${res.statement}): ${res.explanation}${again}`;
    }
  } catch (e) {
    out.className = "bad";
    out.textContent = e.message;
  }
}

// ---- play -----------------------------------------------------------------

const game = { spec: null, pos: null, turn: "human", history: [], over: false, report: null, bar: null, log: [] };

function boardKind() {
  const caps = (view.info && view.info.capabilities) || [];
  if (caps.includes("bar-picture")) return "bar";
  if (caps.includes("line-moves") && game.pos.length === 2) return "board";
  return "stones";
}

async function startGame() {
  // Until the new game is ready, the old one's status and options must not look live.
  game.over = true;
  $("play-status").textContent = "Starting…";
  delete $("play-status").dataset.over;
  for (const b of $("play-options").querySelectorAll("button")) b.disabled = true;
  try {
    view.info = await api("game", gameFields());
  } catch (e) {
    $("play-status").innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
    return;
  }
  const pos = $("play-pos").value.split(",").map((s) => parseInt(s.trim(), 10));
  if (pos.some((n) => !Number.isFinite(n) || n < 0)) {
    $("play-status").innerHTML = `<span class="error">the start position is coordinates like 4,7</span>`;
    return;
  }
  Object.assign(game, { spec: gameFields(), pos, turn: $("play-first").value, history: [], over: false, log: [] });
  $("play-log").innerHTML = "";
  updateHash();
  await step();
}

function logLine(text) {
  const li = document.createElement("li");
  li.textContent = text;
  $("play-log").appendChild(li);
}

async function step() {
  try {
    game.report = await api("moves", { ...game.spec, position: game.pos.join(",") });
    game.bar = boardKind() === "bar" ? await api("bar", { ...game.spec, position: game.pos.join(",") }) : null;
  } catch (e) {
    $("play-status").innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
    return;
  }
  if (game.report.players) {
    // The board is for two players; n players take turns at the terminal.
    game.over = true;
    $("play-status").innerHTML = `<span class="error">${game.report.players}-player games are played in the terminal: nimlab play '${escapeHtml(game.spec.game || "")}' ${game.pos.join(",")}</span>`;
    return;
  }
  const options = game.report.options || [];
  if (options.length === 0) {
    // No move left: the mover loses in normal play (the position is P), wins in misère.
    const moverLoses = game.report.outcome === "P";
    const youWin = (game.turn === "human") !== moverLoses;
    game.over = true;
    $("play-status").textContent = `Game over at ${game.pos.join(",")}: ${youWin ? "you win!" : "the computer wins."}`;
    $("play-status").dataset.over = youWin ? "human" : "computer";
    renderPlay();
    return;
  }
  if (game.turn === "computer") {
    $("play-status").textContent = "The computer is thinking…";
    renderPlay();
    try {
      const m = await api("play", { ...game.spec, position: game.pos.join(","), level: $("play-level").value, seed: Math.floor(Math.random() * 1e9) });
      game.history.push({ pos: game.pos, turn: "computer" });
      logLine(`computer: ${m.from.join(",")} → ${m.to.join(",")} — ${m.explanation}`);
      game.pos = m.to;
      game.turn = "human";
    } catch (e) {
      $("play-status").innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
      return;
    }
    return step();
  }
  $("play-status").textContent = `Your move from ${game.pos.join(",")} (G = ${game.report.grundy ?? "?"}, ${game.report.outcome}-position).`;
  delete $("play-status").dataset.over;
  renderPlay();
}

async function humanMove(to) {
  if (game.over || game.turn !== "human") return;
  game.history.push({ pos: game.pos, turn: "human" });
  logLine(`you: ${game.pos.join(",")} → ${to.join(",")}`);
  game.pos = to;
  game.turn = "computer";
  // Until the reply comes, the old options must not look playable.
  $("play-status").textContent = `You moved to ${to.join(",")}.`;
  for (const b of $("play-options").querySelectorAll("button")) b.disabled = true;
  updateHash();
  await step();
}

function undo() {
  let i = game.history.length - 1;
  while (i >= 0 && game.history[i].turn !== "human") i--;
  if (i < 0) return;
  game.pos = game.history[i].pos;
  game.history.length = i;
  game.turn = "human";
  game.over = false;
  logLine(`undo: back at ${game.pos.join(",")}`);
  $("play-status").textContent = `Back at ${game.pos.join(",")}…`;
  for (const b of $("play-options").querySelectorAll("button")) b.disabled = true;
  step();
}

function renderPlay() {
  const box = $("play-options");
  box.innerHTML = "";
  const options = (game.report && game.report.options) || [];
  for (const o of options) {
    const b = document.createElement("button");
    b.className = o.winning ? "win" : "lose";
    b.textContent = `${o.position.join(",")} (G=${o.grundy ?? "?"})`;
    b.title = o.winning ? "a winning move: to a P-position" : "the opponent can win from there";
    b.disabled = game.over || game.turn !== "human";
    b.addEventListener("click", () => humanMove(o.position));
    box.appendChild(b);
  }
  const kind = boardKind();
  if (kind === "board") drawBoard(options);
  else if (kind === "bar") drawBar();
  else drawStones();
}

// The board is shared by the three drawings: `hits` maps clicks to moves.
let hits = [];

function boardContext() {
  const c = $("board"), g = c.getContext("2d");
  g.clearRect(0, 0, c.width, c.height);
  hits = [];
  return [c, g];
}

function drawBoard(options) {
  const [c, g] = boardContext();
  const [x0, y0] = game.pos;
  const n = Math.max(x0, y0) + 1;
  const s = Math.min(40, (c.width - 20) / n);
  const origin = (x, y) => [10 + x * s, c.height - 10 - (y + 1) * s];
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
    const [px, py] = origin(x, y);
    g.fillStyle = (x + y) % 2 ? "#e8d9b5" : "#f7efdc";
    g.fillRect(px, py, s, s);
  }
  for (const o of options) {
    const [x, y] = o.position;
    const [px, py] = origin(x, y);
    g.fillStyle = o.winning ? "rgba(40,180,40,0.75)" : "rgba(220,60,60,0.45)";
    g.fillRect(px + 1, py + 1, s - 2, s - 2);
    g.fillStyle = "#000";
    g.font = `${Math.max(8, s * 0.35)}px monospace`;
    g.textAlign = "center"; g.textBaseline = "middle";
    g.fillText(String(o.grundy ?? "?"), px + s / 2, py + s / 2);
    hits.push({ x: px, y: py, w: s, h: s, to: o.position });
  }
  const [px, py] = origin(x0, y0);
  g.fillStyle = "#243447";
  g.font = `${s * 0.8}px serif`;
  g.textAlign = "center"; g.textBaseline = "middle";
  g.fillText("♛", px + s / 2, py + s / 2);
  g.strokeStyle = "#000";
  g.strokeRect(origin(0, n - 1)[0], origin(0, n - 1)[1], n * s, n * s);
}

function drawStones() {
  const [c, g] = boardContext();
  const names = (view.info && view.info.coordinate_names) || [];
  const options = (game.report && game.report.options) || [];
  const r = 11;
  game.pos.forEach((heap, i) => {
    const y = 30 + i * 36;
    g.fillStyle = "#000";
    g.font = "13px monospace";
    g.textAlign = "left"; g.textBaseline = "middle";
    g.fillText(`${names[i] || "heap " + (i + 1)}: ${heap}`, 4, y);
    for (let k = 0; k < Math.min(heap, 14); k++) {
      const cx = 110 + k * (2 * r + 2);
      // Clicking stone k leaves k stones in this heap, if that is a move.
      const to = game.pos.slice(); to[i] = k;
      const match = options.find((o) => o.position.length === to.length && o.position.every((v, j) => v === to[j]));
      g.beginPath(); g.arc(cx, y, r, 0, 2 * Math.PI);
      g.fillStyle = match ? (match.winning ? "#6c6" : "#d88") : "#889";
      g.fill();
      if (match) hits.push({ x: cx - r, y: y - r, w: 2 * r, h: 2 * r, to });
    }
  });
}

function drawBar() {
  const [c, g] = boardContext();
  const bar = game.bar;
  if (!bar) return;
  const lo = Math.min(...bar.columns.map((col) => col.index));
  const hi = Math.max(...bar.columns.map((col) => col.index));
  const top = Math.max(...bar.columns.map((col) => Math.max(col.height, col.limit || 0)), 1);
  const s = Math.min(40, (c.width - 20) / (hi - lo + 1), (c.height - 40) / top);
  const origin = (col, row) => [10 + (col - lo) * s, c.height - 10 - (row + 1) * s];
  g.fillStyle = "#000"; g.font = "12px sans-serif"; g.textAlign = "left"; g.textBaseline = "top";
  g.fillText(bar.caption, 6, 4);
  for (const col of bar.columns) for (let row = 0; row < col.height; row++) {
    const [px, py] = origin(col.index, row);
    g.fillStyle = col.index === 0 && row === 0 ? "#333" : "#7b4a2a";
    g.fillRect(px + 1, py + 1, s - 2, s - 2);
    if (col.index === 0 && row === 0) { g.fillStyle = "#fff"; g.textAlign = "center"; g.textBaseline = "middle"; g.fillText("bitter", px + s / 2, py + s / 2); }
    // Clicking a square breaks off the smallest piece that holds it.
    const best = bar.options
      .filter((o) => o.eaten.some(([a, b]) => a === col.index && b === row))
      .sort((a, b) => a.eaten.length - b.eaten.length)[0];
    if (best) hits.push({ x: px, y: py, w: s, h: s, to: best.position, bar: best });
  }
}

function setupBoard() {
  const c = $("board");
  c.addEventListener("click", (ev) => {
    const r = c.getBoundingClientRect();
    const x = ((ev.clientX - r.left) * c.width) / r.width, y = ((ev.clientY - r.top) * c.height) / r.height;
    const hit = hits.find((h) => x >= h.x && x < h.x + h.w && y >= h.y && y < h.y + h.h);
    if (hit) humanMove(hit.to);
  });
  c.addEventListener("mousemove", (ev) => {
    if (!game.bar) return;
    const r = c.getBoundingClientRect();
    const x = ((ev.clientX - r.left) * c.width) / r.width, y = ((ev.clientY - r.top) * c.height) / r.height;
    const hit = hits.find((h) => x >= h.x && x < h.x + h.w && y >= h.y && y < h.y + h.h);
    drawBar();
    if (!hit) return;
    const g = c.getContext("2d");
    g.fillStyle = hit.bar.winning ? "rgba(60,220,60,0.55)" : "rgba(230,60,60,0.5)";
    const s = hit.w;
    const lo = Math.min(...game.bar.columns.map((col) => col.index));
    for (const [a, b] of hit.bar.eaten) g.fillRect(10 + (a - lo) * s, c.height - 10 - (b + 1) * s, s, s);
  });
}

/** Page coordinates of the centre of the first clickable piece of the board moving to `to`. */
function boardTarget(to) {
  const c = $("board");
  c.scrollIntoView({ block: "center" });
  const r = c.getBoundingClientRect();
  const hit = hits.find((h) => h.to.join(",") === to.join(","));
  if (!hit) return null;
  return [r.left + ((hit.x + hit.w / 2) * r.width) / c.width, r.top + ((hit.y + hit.h / 2) * r.height) / c.height];
}

/** The point of the board (CSS pixels from its top-left corner) that moves to `to`. */
function boardPoint(to) {
  const c = $("board"), r = c.getBoundingClientRect();
  const hit = hits.find((h) => h.to.join(",") === to.join(","));
  if (!hit) return null;
  return { x: ((hit.x + hit.w / 2) * r.width) / c.width, y: ((hit.y + hit.h / 2) * r.height) / c.height };
}

// ---- shareable URL ---------------------------------------------------------

function updateHash() {
  const p = new URLSearchParams();
  p.set("game", $("spec").value.trim());
  if ($("misere").checked) p.set("misere", "1");
  if ($("pass").checked) p.set("pass", "1");
  p.set("size", $("size").value);
  if (game.pos) p.set("pos", game.pos.join(","));
  const hash = "#" + p.toString();
  history.replaceState(null, "", hash);
  $("share").href = hash;
}

async function fromHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (!p.get("game")) return false;
  $("spec").value = p.get("game");
  $("misere").checked = p.get("misere") === "1";
  $("pass").checked = p.get("pass") === "1";
  if (p.get("size")) $("size").value = p.get("size");
  await showTable();
  if (p.get("pos")) {
    $("play-pos").value = p.get("pos");
    await startGame();
  }
  return true;
}

// ---- start ----------------------------------------------------------------

async function init() {
  setupHeatmap();
  setupBoard();
  try {
    catalog = (await api("games")).games;
  } catch (e) {
    $("table-info").textContent = "cannot load the catalog: " + e.message;
  }
  const sel = $("family");
  for (const f of catalog) {
    const o = document.createElement("option");
    o.value = f.name;
    o.textContent = f.name;
    o.title = f.summary;
    sel.appendChild(o);
  }
  sel.value = "wythoff";
  sel.addEventListener("change", () => { showParams(); specFromFamily(); });
  showParams();
  $("show-table").addEventListener("click", showTable);
  $("check").addEventListener("click", checkFormula);
  $("prove").addEventListener("click", proveFormula);
  $("play-start").addEventListener("click", startGame);
  $("play-undo").addEventListener("click", undo);
  for (const id of ["misere", "pass"]) $(id).addEventListener("change", showTable);
  if (!(await fromHash())) await showTable();
  document.body.dataset.ready = "1";
}

window.nimlab = { cellCenter, boardTarget, boardPoint, view, game, selectCell };
init();
