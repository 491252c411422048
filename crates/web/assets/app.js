// nimlab explorer: plain JavaScript, no build step. Every value, explanation, challenge
// and worksheet comes from /api (the library); the page only draws.
//
// Orientation, as in `nimlab table` (text, PNG, LaTeX, SVG) and `nimlab draw`: columns
// x left to right, rows y top to bottom, y = 0 on top — the papers' table layout.
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

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

/** A position of any game as people write it: numbers `3,5`, parts `1,2;5`, a board's
 *  text, a graph's vertices `{0,2}`, a pass position `board,1`. */
const posText = (p) => {
  if (typeof p === "string" || typeof p === "number") return String(p);
  if (Array.isArray(p)) {
    const flat = p.every((x) => typeof x === "number" || (typeof x === "string" && /^\d+$/.test(x)));
    return p.map(posText).join(flat ? "," : ";");
  }
  if (p && Array.isArray(p.vertices)) return `{${p.vertices.join(",")}}`;
  if (p && "flag" in p) return `${posText(p.position)},${p.flag}`;
  return String(p);
};

// ---- the game of the page -------------------------------------------------

let catalog = [];

/** The request fields naming the game: the pasted rules (when the rules box is open
 *  and filled) or the spec (wrapped in misère / pass). */
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

/** Splits `a=1,b=f(x,y)` at its top-level commas. */
function splitTop(text) {
  const out = [];
  let depth = 0, cur = "";
  for (const ch of text) {
    if ("({[".includes(ch)) depth++;
    if (")}]".includes(ch)) depth--;
    if (ch === "," && depth === 0) { out.push(cur); cur = ""; } else cur += ch;
  }
  if (cur.trim()) out.push(cur);
  return out.map((s) => s.trim());
}

/** Family name and named arguments of a spec such as `ryuoh(p=3)`. */
function parseSpec(spec) {
  const open = spec.indexOf("(");
  if (open < 0) return { name: spec.trim(), args: {} };
  const args = {};
  for (const part of splitTop(spec.slice(open + 1, spec.lastIndexOf(")")))) {
    const eq = part.indexOf("=");
    if (eq > 0) args[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return { name: spec.slice(0, open).trim(), args };
}

/** The value a parameter starts with: the catalog's default, else the first example
 *  of its own help text ("e.g. t/2, …"), else a plain game for game parameters. */
function startValue(p) {
  if (p.default) return p.default;
  const m = /e\.g\.\s*([^,;]+(?:\([^)]*\))?)/.exec(p.help || "");
  if (m && !/^[a-z-]+\(/.test(m[1])) return m[1].trim();
  if (/game/.test(p.kind)) return "nim";
  return "";
}

function family() {
  return catalog.find((g) => g.name === $("family").value);
}

function specFromFamily() {
  const f = family();
  if (!f) return;
  const args = [];
  for (const p of f.parameters) {
    const v = $("param-" + p.name).value.trim();
    if (v && v !== p.default) args.push(`${p.name}=${v}`);
  }
  $("spec").value = args.length ? `${f.name}(${args.join(",")})` : f.name;
}

/** One input per parameter of the family, with the catalog's help shown under it. */
function showParams(values) {
  const f = family();
  const box = $("params");
  box.innerHTML = "";
  $("family-summary").textContent = f ? `Rules: ${f.summary}.` : "";
  if (!f) return;
  for (const p of f.parameters) {
    const label = document.createElement("label");
    label.textContent = `${p.name} `;
    const input = document.createElement("input");
    input.id = "param-" + p.name;
    input.value = values[p.name] ?? startValue(p);
    input.placeholder = p.default || p.kind;
    input.spellcheck = false;
    const hint = document.createElement("span");
    hint.className = "param-hint";
    hint.id = "hint-" + p.name;
    hint.textContent = `${p.help} (${p.kind}${p.default ? `, default ${p.default}` : ""})`;
    input.setAttribute("aria-describedby", hint.id);
    input.addEventListener("change", () => { specFromFamily(); showTable(); });
    label.appendChild(input);
    label.appendChild(hint);
    box.appendChild(label);
  }
}

/** After a table is shown: the family selector, parameters and formula box say what
 *  the game is (a spec typed by hand, a shared link or a rules file). */
function syncControls(info, fields) {
  const sel = $("family");
  let rulesOption = sel.querySelector("option[value='']");
  if (fields.rules) {
    if (!rulesOption) {
      rulesOption = document.createElement("option");
      rulesOption.value = "";
      rulesOption.textContent = "(rules file)";
      sel.prepend(rulesOption);
    }
    sel.value = "";
    showParams({});
    $("family-summary").textContent = `${info.game}: from the pasted rules file`;
  } else {
    if (rulesOption) rulesOption.remove();
    const { name, args } = parseSpec($("spec").value.trim());
    if (catalog.some((g) => g.name === name)) {
      sel.value = name;
      showParams(args);
    }
  }
  const claim = info.closed_form ? "formula" : info.p_positions ? "p_positions" : "formula";
  $("formula").value = info.closed_form || info.p_positions || "";
  view.declared = $("formula").value;
  document.querySelector(`input[name=claim][value=${claim}]`).checked = true;
  $("check-result").textContent = "";
  $("check-result").className = "";
  formulaHelp(info);
}

/** The formula box's placeholder and syntax help: the game's variables (its
 *  coordinates) and the functions of the formula language, as /api/game lists them. */
function formulaHelp(info) {
  const names = info.coordinate_names || [];
  $("formula").placeholder = names.length > 1 ? `e.g. ${names.join(" xor ")}` : names.length ? `e.g. ${names[0]} % 4` : "";
  $("formula-help").innerHTML =
    `<p>Variables: ${names.map((n) => `<code>${escapeHtml(n)}</code>`).join(", ") || "none"} (the coordinates).</p>` +
    `<p>Operators: <code>+ - * / %</code> (floor division, remainder), <code>^</code> (power), <code>xor</code> (the nim-sum), <code>&amp; | &lt;&lt; &gt;&gt;</code>, comparisons <code>== != &lt; &lt;= &gt; &gt;=</code>, <code>&amp;&amp; || !</code>, <code>if c then a else b</code>.</p>` +
    `<p>Functions: ${(info.formula_functions || []).map((f) => `<code>${escapeHtml(f)}(…)</code>`).join(", ")}.</p>` +
    `<p>With “P-positions” checked, write a condition that holds exactly at the P-positions, e.g. <code>${escapeHtml(names.join(" xor ") || "x")} == 0</code>.</p>`;
}

// ---- heatmap --------------------------------------------------------------

const ML = 40, MT = 26, AREA = 560; // label margins and the plotting square
const view = {
  table: null, // {dims, values (flat, first coordinate fastest), max}
  info: null,
  players: null, // n-player games: the number of players (values are classes)
  zoom: 1, panX: 0, panY: 0,
  selected: null, // [x, y]
  cursor: null, // keyboard cursor [x, y]
  highlighted: { winning: [], others: [] },
  mismatches: [],
  fixed: [], // the slice: coordinates beyond the first two
  labels: [], // the coordinate labels drawn: {axis, value, x, y} (canvas pixels)
  palette: "classic",
  generation: 0, // bumped by every new table: answers about an older one are dropped
  wrap: 10, // one-heap tables: heaps per row of the strip (the period when it is short)
  period: null, // one-heap tables: {period, preperiod, saltus, proven} from /api/table
};

/** Class mode hides the answers (values, colours, P-positions, move values) until the
 *  teacher reveals them; the presenter view has large type and reveals the mex step by
 *  step. */
const classroom = { on: false, revealed: false, presenter: false };

/** Whether the answers are hidden now. */
const hidden = () => classroom.on && !classroom.revealed;

function flatten(values) {
  const out = [];
  const walk = (v) => (Array.isArray(v) ? v.forEach(walk) : out.push(v));
  walk(values);
  return out;
}

function valueAt(x, y) {
  const t = view.table;
  if (!t) return undefined;
  const d = t.dims;
  if (d.length === 1) {
    // The strip wrapped in rows of view.wrap heaps: n = y · wrap + x.
    if (x < 0 || y < 0 || x >= view.wrap) return undefined;
    const n = y * view.wrap + x;
    return n < d[0] ? t.values[n] : undefined;
  }
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

function planeSize() {
  const d = view.table.dims;
  if (d.length === 1) return [Math.min(view.wrap, d[0]), Math.ceil(d[0] / view.wrap)];
  return [d[0], d[1]];
}

/** The cell (x, y) of the picture showing a position of the table, or null when the
 *  position is not on the plane shown (another slice). */
function cellOf(pos) {
  if (!Array.isArray(pos) || !view.table) return null;
  if (view.table.dims.length === 1) return [pos[0] % view.wrap, Math.floor(pos[0] / view.wrap)];
  if (pos.length !== view.table.dims.length || !pos.slice(2).every((c, i) => c === view.fixed[i])) return null;
  return [pos[0], pos[1] ?? 0];
}

function cellSize() {
  const [w, h] = planeSize();
  return (AREA / Math.max(w, h)) * view.zoom;
}

/** Canvas pixel of the top-left corner of cell (x, y); y grows downward. */
function cellOrigin(x, y) {
  const s = cellSize();
  return [ML + view.panX + x * s, MT + view.panY + y * s];
}

function hslToRgb(h, s, l) {
  s /= 100; l /= 100;
  const k = (n) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0), f(8), f(4)].map((v) => Math.round(v * 255));
}

// Viridis at five stops: ordered in lightness, readable with every colour vision.
const VIRIDIS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];

function rgbOf(v, max) {
  if (v === null || v === undefined) return [204, 204, 204];
  if (v === 0) return [17, 17, 17];
  const t = Math.min(1, v / Math.max(1, max));
  if (view.palette === "safe") {
    // From viridis' blue on: 1 stands apart from 0 (black), not a near-black purple.
    const x = (0.3 + 0.7 * t) * (VIRIDIS.length - 1), i = Math.min(VIRIDIS.length - 2, Math.floor(x)), f = x - i;
    return VIRIDIS[i].map((c, k) => Math.round(c + (VIRIDIS[i + 1][k] - c) * f));
  }
  return hslToRgb(240 - 200 * t, 75, 35 + 25 * t);
}

function luminance([r, g, b]) {
  const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Fill and digit colour of a cell: the digit black or white, whichever contrasts more. */
function cellColours(v, max) {
  const rgb = rgbOf(v, max);
  const L = luminance(rgb);
  const text = (L + 0.05) / 0.05 >= 1.05 / (L + 0.05) ? "#000" : "#fff";
  return { fill: `rgb(${rgb.join(",")})`, text, rgb };
}

/** Label every k-th coordinate: k the smallest of 1, 2, 5, 10, 20, … that leaves room. */
function labelStep(s, digits) {
  const need = Math.max(14, digits * 7 + 4);
  for (const k of [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]) if (k * s >= need) return k;
  return 1000;
}

function draw() {
  const c = $("heatmap"), g = c.getContext("2d");
  g.clearRect(0, 0, c.width, c.height);
  view.labels = [];
  const t = view.table;
  if (!t) return;
  const s = cellSize();
  const [w, h] = planeSize();
  g.save();
  g.beginPath();
  g.rect(ML, MT, c.width - ML, c.height - MT);
  g.clip();
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const [px, py] = cellOrigin(x, y);
      if (px > c.width || py > c.height || px + s < ML || py + s < MT) continue;
      const v = valueAt(x, y);
      if (v === undefined) continue;
      const secret = hidden() && v !== null;
      const col = secret ? { fill: "#f4f1e8", text: "#000" } : cellColours(v, t.max);
      g.fillStyle = col.fill;
      g.fillRect(px, py, s + 0.5, s + 0.5);
      if (secret) {
        if (s >= 5) { g.strokeStyle = "#c8c2b0"; g.lineWidth = 1; g.strokeRect(px + 0.5, py + 0.5, s - 1, s - 1); }
      } else if (s >= 18 && v !== null) {
        g.fillStyle = col.text;
        g.font = `${Math.min(14, s * 0.5)}px monospace`;
        g.textAlign = "center";
        g.textBaseline = "middle";
        g.fillText(String(v), px + s / 2, py + s / 2);
      }
    }
  }
  const outline = (cells, style, width, dash) => {
    g.strokeStyle = style;
    g.lineWidth = width;
    g.setLineDash(dash || []);
    for (const [x, y] of cells) {
      const [px, py] = cellOrigin(x, y);
      g.strokeRect(px + width / 2, py + width / 2, s - width, s - width);
    }
    g.setLineDash([]);
  };
  outline(view.mismatches, "#f00", Math.max(2, s / 6));
  if (!hidden()) {
    outline(view.highlighted.others, "#fff", 1.5);
    outline(view.highlighted.winning, "#0f0", Math.max(2, s / 5));
  }
  // A one-heap strip wrapped by its period: the preperiod's cells bracketed apart.
  if (t.dims.length === 1 && view.period && view.period.preperiod > 0 && view.wrap % view.period.period === 0) {
    g.strokeStyle = "#243447"; g.lineWidth = 2; g.setLineDash([5, 3]);
    const a = view.period.preperiod;
    const [ax, ay] = cellOrigin(a % view.wrap, Math.floor(a / view.wrap));
    g.beginPath(); g.moveTo(ax, ay); g.lineTo(ax, ay + s);
    if (a % view.wrap) { g.moveTo(ax, ay + s); g.lineTo(cellOrigin(0, 0)[0], ay + s); }
    g.stroke(); g.setLineDash([]);
  }
  if (view.selected) outline([view.selected], "#ff0", Math.max(2, s / 5));
  if (view.cursor && document.activeElement === c) outline([view.cursor], "#f90", 2, [4, 3]);
  g.restore();
  // Coordinate labels: x along the top, y down the left, as the text table prints them.
  const names = (view.info && view.info.coordinate_names) || ["x", "y"];
  g.fillStyle = "#333";
  g.font = "11px sans-serif";
  const stepX = labelStep(s, String(w - 1).length), stepY = labelStep(s, 1);
  g.textAlign = "center"; g.textBaseline = "bottom";
  for (let x = 0; x < w; x += stepX) {
    const px = cellOrigin(x, 0)[0] + s / 2;
    if (px < ML || px > c.width) continue;
    g.fillText(String(x), px, MT - 3);
    view.labels.push({ axis: "x", value: x, x: px, y: MT - 3 });
  }
  g.textAlign = "right"; g.textBaseline = "middle";
  if (h > 1) {
    const strip = t.dims.length === 1;
    for (let y = 0; y < h; y += strip ? 1 : stepY) {
      const py = cellOrigin(0, y)[1] + s / 2;
      if (py < MT || py > c.height) continue;
      // A wrapped strip's rows are labelled by their first heap.
      const value = strip ? y * view.wrap : y;
      g.fillText(String(value), ML - 4, py);
      view.labels.push({ axis: "y", value, x: ML - 4, y: py });
    }
  }
  g.font = "bold 11px sans-serif";
  g.textAlign = "left"; g.textBaseline = "top";
  g.fillText(t.dims.length > 1 ? `${names[1] || "y"}↓ ${names[0] || "x"}→` : `${names[0] || "n"} = row + column`, 2, 2);
  c.dataset.hidden = hidden() ? "1" : "";
  drawLegend();
}

/** The colour legend under the table (none while the answers are hidden). */
function drawLegend() {
  const box = $("legend");
  const t = view.table;
  if (!t || hidden()) { box.innerHTML = ""; return; }
  const what = view.players ? "class" : "G";
  const values = [...new Set([0, 1, Math.round(t.max / 2), t.max].filter((v) => v <= t.max))];
  const swatch = (rgb, text, label) =>
    `<span class="swatch"><span class="box" style="background:rgb(${rgb.join(",")})"></span>${escapeHtml(label)}</span>`;
  let html = values.map((v) => swatch(rgbOf(v, t.max), "", `${what} = ${v}${v === 0 && !view.players ? " (P-position)" : ""}`)).join("");
  if (t.values.includes(null)) html += swatch([204, 204, 204], "", "not a position");
  box.innerHTML = html;
}

function canvasPoint(ev) {
  const c = $("heatmap"), r = c.getBoundingClientRect();
  return [((ev.clientX - r.left) * c.width) / r.width, ((ev.clientY - r.top) * c.height) / r.height];
}

function cellAt(ev) {
  const [px, py] = canvasPoint(ev);
  if (px < ML || py < MT) return [-1, -1];
  const s = cellSize();
  return [Math.floor((px - ML - view.panX) / s), Math.floor((py - MT - view.panY) / s)];
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

function describeCell(x, y) {
  const v = valueAt(x, y);
  if (v === undefined) return " ";
  const what = view.players ? "class" : "G";
  return `(${positionOf(x, y).join(",")})  ${what} = ${v === null ? "not a position" : hidden() ? "?" : v}`;
}

async function showTable() {
  const size = parseInt($("size").value, 10) || 16;
  const fields = gameFields();
  const generation = ++view.generation;
  $("table-info").textContent = "computing…";
  view.mismatches = [];
  view.selected = null;
  view.cursor = null;
  view.highlighted = { winning: [], others: [] };
  try {
    const info = await api("game", fields);
    if (!info.writes_numbers) {
      // A board, a shape or a graph: no table over a box; play it below.
      if (generation !== view.generation) return;
      view.info = info;
      view.table = null;
      view.players = null;
      $("table-info").textContent = `${info.game}: positions are pictures, not cells of a table — play it below (start: ${info.start ?? "write a position"}).`;
      syncControls(info, fields);
      resetPosition();
      resetPlay();
      resetChallenge();
      resetWorksheet();
      draw();
      updateHash();
      return;
    }
    const t = await api("table", { ...fields, size });
    if (generation !== view.generation) return; // a newer table was asked for
    view.info = info;
    const values = flatten(t.values);
    view.table = { dims: t.box, values, max: values.reduce((m, v) => (v !== null && v > m ? v : m), 0) };
    view.players = t.players || null;
    view.fixed = ($("slice").value.trim() ? $("slice").value.split(",").map((s) => parseInt(s, 10) || 0) : [])
      .concat(new Array(Math.max(0, t.box.length - 2)).fill(0)).slice(0, Math.max(0, t.box.length - 2));
    view.zoom = 1; view.panX = 0; view.panY = 0;
    view.period = t.period ? { period: t.period, preperiod: t.preperiod, saltus: t.saltus, proven: t.period_proven } : null;
    // A strip wraps by its period (columns then repeat down the rows; a period under 4
    // repeated to fill a row of 8 or more), else in rows of 10.
    const period = view.period ? view.period.period : 0;
    view.wrap = period >= 4 && period <= 40 ? period : period > 0 && period < 4 ? period * Math.ceil(8 / period) : 10;
    $("heatmap").dataset.cells = String(values.length);
    $("heatmap").dataset.game = t.game;
    const what = t.players ? `classes of ${t.players} players (ranking ${t.ranking})` : "Grundy values";
    let extra = "";
    if (t.box.length > 2) extra += `; the slice ${info.coordinate_names.slice(2).map((n, i) => `${n} = ${view.fixed[i]}`).join(", ")} is shown`;
    if (t.box.length === 1) {
      const p = view.period;
      extra += p
        ? `; period ${p.period}${p.preperiod ? ` from n = ${p.preperiod}` : ""}${p.saltus ? ` (each period adds ${p.saltus})` : ""}, ${p.proven ? "proven" : "observed"}; rows of ${view.wrap}`
        : "; no period seen; rows of 10";
    }
    $("table-info").textContent = `${t.game}: box ${t.box.join("×")}, coordinates ${info.coordinate_names.join(", ")}; ${what}${extra}; method ${t.method} — ${t.method_detail}`;
    syncControls(info, fields);
    resetPosition();
    resetPlay();
    resetChallenge();
    resetWorksheet();
    draw();
    updateHash();
  } catch (e) {
    if (generation === view.generation) $("table-info").innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
  }
}

function positionOf(x, y) {
  if (view.table.dims.length === 1) return [y * view.wrap + x];
  return [x, y, ...view.fixed].slice(0, view.table.dims.length);
}

function resetPosition() {
  $("cell-info").textContent = "Click a cell of the table (or focus it and press Enter) to see why it has its value.";
  $("explain").innerHTML = "";
  $("options").innerHTML = "";
  $("nimsum").textContent = "";
}

/** The options list: one button per option (arrow keys move, Enter shows it). */
function listOptions(options, pos, nplayer) {
  const list = $("options");
  list.innerHTML = "";
  const winning = [], others = [];
  const secret = hidden() || !!reveal.e;
  options.forEach((o, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    const shown = !secret || (reveal.e && i < reveal.k);
    b.textContent = !shown
      ? `${posText(o.position)}  ${nplayer ? "class" : "G"} = ?`
      : nplayer
        ? `${posText(o.position)}  class ${o.class}: moving here, the mover ranks ${o.rank}`
        : `${posText(o.position)}  G = ${o.grundy ?? "?"}${o.winning && !secret ? "  ← winning" : ""}`;
    b.setAttribute("aria-label", !shown
      ? `option ${posText(o.position)}, value hidden`
      : nplayer
        ? `option ${posText(o.position)}, class ${o.class}: the player moving there ranks ${o.rank}`
        : `option ${posText(o.position)}, Grundy value ${o.grundy ?? "unknown"}${o.winning && !secret ? ", a winning move" : ""}`);
    b.addEventListener("keydown", (ev) => {
      const buttons = [...list.querySelectorAll("button")];
      if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
        ev.preventDefault();
        const j = Math.max(0, Math.min(buttons.length - 1, i + (ev.key === "ArrowDown" ? 1 : -1)));
        buttons[j].focus();
      }
    });
    const cell = cellOf(o.position);
    b.addEventListener("click", () => { if (cell) selectCell(...cell); });
    if (o.winning && !secret) li.className = "winning";
    li.appendChild(b);
    list.appendChild(li);
    if (cell) (o.winning && !secret ? winning : others).push(cell);
  });
  view.highlighted = { winning, others };
}

/** The mex worked out: every value up to the mex, present or missing, the mex marked. */
function mexHtml(e) {
  const sorted = e.sorted_values.map(Number);
  const top = Math.max(e.mex ?? 0, sorted.length ? sorted[sorted.length - 1] : 0);
  const present = new Set(sorted);
  let chips = "";
  for (let v = 0; v <= Math.min(top, 64); v++) {
    const cls = v === e.mex ? "chip mex" : present.has(v) ? "chip" : "chip missing";
    const title = v === e.mex ? "the least value no option has: the mex" : present.has(v) ? "an option has this value" : "no option has this value";
    chips += `<span class="${cls}" title="${title}" data-value="${v}">${v}</span>`;
  }
  const where = `G(${posText(e.position)})`;
  const set = sorted.length ? sorted.join(", ") : "";
  const mexLine = e.mex === null || e.mex === undefined
    ? `<div class="mex-line">option values ${escapeHtml(set)} (not all known)</div>`
    : `<div class="mex-line">${where} = mex{${escapeHtml(set)}} = <b>${e.mex}</b></div>`;
  const missing = [];
  for (let v = 0; v <= Math.min(top, 64); v++) if (!present.has(v) && v !== e.mex) missing.push(v);
  const spoken = e.mex === null || e.mex === undefined
    ? `Option values: ${set || "none"}.`
    : `Option values: ${set || "none"}. ${missing.length ? `Also missing: ${missing.join(", ")}. ` : ""}The least missing value, the mex, is ${e.mex}.`;
  return `${mexLine}<div class="chips" aria-hidden="true">${chips}</div><p class="sr-only">${escapeHtml(spoken)}</p>` +
    `<div class="hint">The options' values, sorted; the value of the position is the least natural number that is not among them (highlighted)${e.mex === 0 ? ": 0, so this is a P-position" : ""}.</div>`;
}

/** A sum's value: its components' values in binary, column by column, and the nim-sum. */
function nimSumHtml(ns) {
  const bits = ns.binary.length;
  const row = (label, g, bin, cls) =>
    `<tr class="${cls || ""}"><td>${escapeHtml(label)}</td><td>${g}</td>${[...bin].map((b) => `<td class="bit">${b}</td>`).join("")}</tr>`;
  let html = `<div>nim-sum of the components, column by column in binary:</div><table class="nimsum" aria-label="nim-sum in binary">`;
  html += `<tr><td></td><td>G</td>${Array.from({ length: bits }, (_, i) => `<td class="bit">${2 ** (bits - 1 - i)}</td>`).join("")}</tr>`;
  ns.rows.forEach((r, i) => { html += row(`${i ? "⊕ " : ""}${r.game} at ${r.position.join(",")}`, r.grundy, r.binary); });
  html += row("= nim-sum", ns.total, ns.binary, "total");
  return html + "</table>";
}

/** The selected position's answer while it is revealed step by step (class mode or the
 *  presenter view): `e` the explanation (or the n-player moves report), `k` the options
 *  whose values are shown; the value itself comes after the last option. */
const reveal = { e: null, k: 0, pos: null, nplayer: false };

/** The selected position's panel: everything when the answers are shown, else as far
 *  as the step-by-step reveal has gone. */
function renderCell() {
  const { e, pos, nplayer } = reveal.e ? reveal : cellAnswer;
  if (!e) return;
  const options = e.options || [];
  const stepping = !!reveal.e;
  const done = !stepping || reveal.k > options.length;
  listOptions(options, pos, nplayer);
  const where = `<b>${escapeHtml(pos.join(","))}</b>`;
  if (!done) {
    const k = reveal.k;
    const known = options.slice(0, k).map((o) => (nplayer ? o.class : o.grundy)).sort((a, b) => a - b);
    $("cell-info").innerHTML = `${where}: ${nplayer ? "class" : "G"} = ?; ${options.length} option${options.length === 1 ? "" : "s"}`;
    const next = k < options.length
      ? `Show the value of option ${k + 1} of ${options.length} (${escapeHtml(posText(options[k].position))})`
      : nplayer ? "Show the class" : "Show the mex";
    $("explain").innerHTML = `<div class="mex-line">${nplayer ? "option classes" : `G(${escapeHtml(pos.join(","))}) = mex`}{${known.join(", ")}${k < options.length ? (k ? ", …" : "…") : ""}} = ?</div>` +
      `<button id="reveal-step">${next}</button>`;
    $("reveal-step").addEventListener("click", () => { reveal.k++; renderCell(); $("reveal-step")?.focus(); });
    $("nimsum").textContent = "";
    draw();
    return;
  }
  if (nplayer) {
    $("cell-info").innerHTML = `${where}: class ${e.class} of ${e.players} players: with best play the player to move ranks ${e.rank} (${escapeHtml(e.method_detail)})`;
    $("explain").innerHTML = "";
    $("nimsum").textContent = "";
  } else {
    const winning = options.filter((o) => o.winning).length;
    $("cell-info").innerHTML = `${where}: G = ${e.grundy ?? "?"}, ${e.outcome}` +
      `-position; ${options.length} options, ${winning} winning` +
      (e.options_note ? `<br><i>${escapeHtml(e.options_note)}</i>` : "");
    $("explain").innerHTML = e.options ? mexHtml(e) : "";
    let steps = "";
    if (e.nim_sum) steps += nimSumHtml(e.nim_sum);
    if (e.closed_form) steps += `<div class="steps">${escapeHtml(e.closed_form)}</div>`;
    steps += `<div class="hint">method: ${escapeHtml(e.method)} — ${escapeHtml(e.method_detail)}</div>`;
    $("nimsum").innerHTML = steps;
  }
  draw();
}

/** The answer about the selected cell (shown in full when nothing is hidden). */
const cellAnswer = { e: null, pos: null, nplayer: false };

async function selectCell(x, y) {
  const t = view.table;
  const [w, h] = t ? planeSize() : [0, 0];
  if (!t || x < 0 || y < 0 || x >= w || y >= h) return;
  const v = valueAt(x, y);
  if (v === undefined) return;
  view.selected = [x, y];
  view.cursor = [x, y];
  const pos = positionOf(x, y);
  const generation = view.generation;
  Object.assign(reveal, { e: null, k: 0 });
  Object.assign(cellAnswer, { e: null });
  updateHash();
  if (v === null) {
    // A grey cell: not a position of the game, nothing to ask the server.
    resetPosition();
    $("cell-info").textContent = `${pos.join(",")} is not a position of ${view.info ? view.info.game : "this game"} (grey cells lie outside the game): pick a coloured cell.`;
    view.highlighted = { winning: [], others: [] };
    draw();
    return;
  }
  $("cell-info").textContent = `${pos.join(",")}: …`;
  try {
    const nplayer = !!view.players;
    const e = nplayer
      ? await api("moves", { ...gameFields(), position: pos.join(",") })
      : await api("explain", { ...gameFields(), position: pos.join(",") });
    if (generation !== view.generation) return;
    Object.assign(cellAnswer, { e, pos, nplayer });
    if (hidden() || classroom.presenter) Object.assign(reveal, { e, k: 0, pos, nplayer });
    renderCell();
  } catch (e) {
    if (generation === view.generation) $("cell-info").innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
  }
}

function setupHeatmap() {
  const c = $("heatmap");
  let drag = null;
  c.addEventListener("mousemove", (ev) => {
    if (drag) {
      const r = c.getBoundingClientRect();
      view.panX += ((ev.clientX - drag.x) * c.width) / r.width;
      view.panY += ((ev.clientY - drag.y) * c.height) / r.height;
      drag.moved = drag.moved || Math.abs(ev.clientX - drag.x) + Math.abs(ev.clientY - drag.y) > 3;
      drag.x = ev.clientX; drag.y = ev.clientY;
      draw();
      return;
    }
    if (!view.table) return;
    const [x, y] = cellAt(ev);
    $("hover").textContent = describeCell(x, y);
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
    const [px, py] = canvasPoint(ev);
    const f = ev.deltaY < 0 ? 1.25 : 0.8;
    view.panX = px - ML - (px - ML - view.panX) * f;
    view.panY = py - MT - (py - MT - view.panY) * f;
    view.zoom *= f;
    draw();
  }, { passive: false });
  // Keyboard: arrows move a cursor, Enter or space explains the cell.
  c.addEventListener("keydown", (ev) => {
    if (!view.table) return;
    const [w, h] = planeSize();
    const cur = view.cursor || [0, 0];
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[ev.key]) {
      ev.preventDefault();
      const [dx, dy] = moves[ev.key];
      view.cursor = [Math.max(0, Math.min(w - 1, cur[0] + dx)), Math.max(0, Math.min(h - 1, cur[1] + dy))];
      $("hover").textContent = describeCell(...view.cursor);
      draw();
    } else if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      view.cursor = cur;
      selectCell(...cur);
    }
  });
  c.addEventListener("focus", () => {
    if (!view.cursor) view.cursor = view.selected || [0, 0];
    if (view.table) $("hover").textContent = describeCell(...view.cursor);
    draw();
  });
  c.addEventListener("blur", draw);
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
    view.mismatches = r.mismatches.map((m) => cellOf(m.position)).filter((c) => c);
    out.className = r.holds ? "good" : "bad";
    out.textContent = r.holds
      ? `holds on all ${r.checked} positions`
      : `${r.mismatch_count} mismatch${r.mismatch_count === 1 ? "" : "es"} in ${r.checked} positions (outlined in red); first at ${r.mismatches[0].position.join(",")}: ${r.compared === "class" ? `class ${r.mismatches[0].class}` : `G = ${r.mismatches[0].grundy}`}, formula ${r.mismatches[0].formula}`;
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
      // In plain words first: where the claim fails, outlined on the table; the
      // automata's statement after, for whoever wants it.
      const at = res.confirmed ? res.confirmed.position.map(Number) : null;
      const cell = at ? cellOf(at) : null;
      view.mismatches = cell ? [cell] : [];
      draw();
      const where = at
        ? `It fails at ${at.join(",")}${cell ? " (outlined in red on the table)" : ""}: ${res.confirmed.why}.`
        : "There is a position where it fails.";
      out.innerHTML = `<b>Not true for every position.</b> ${escapeHtml(where)}` +
        `<details><summary>the automata's statement</summary>${escapeHtml(`${res.statement}: ${res.explanation}`)}</details>`;
    }
  } catch (e) {
    out.className = "bad";
    out.textContent = e.message;
  }
}

// ---- play -----------------------------------------------------------------

// `turn`: the seat to move (0 = the first player); `you`: the seat the person holds.
const game = { spec: null, pos: null, turn: 0, you: 0, players: 2, history: [], over: true, report: null, bar: null, family: "", id: 0 };

function boardKind() {
  if (typeof game.pos === "string") return "picture";
  if (game.pos && Array.isArray(game.pos.vertices)) return "graph";
  if (!Array.isArray(game.pos) || game.pos.some((c) => typeof c !== "number")) return "list";
  const caps = (view.info && view.info.capabilities) || [];
  if (caps.includes("bar-picture")) return "bar";
  if (caps.includes("line-moves") && game.pos.length === 2) return "board";
  return "stones";
}

/** A start position for the game in the table: the valid cell farthest from 0 within a
 *  small square (so a first game is short). */
function suggestStart() {
  const t = view.table;
  if (view.info && !view.info.writes_numbers) return view.info.start ? "start" : "";
  if (!t) return "4,7";
  const [w, h] = planeSize();
  let best = null, bestSum = -1;
  for (let y = 0; y < Math.min(h, 8); y++) for (let x = 0; x < Math.min(w, 8); x++) {
    const v = valueAt(x, y);
    if (v === null || v === undefined) continue;
    const sum = x + y + (x === y ? -1 : 0);
    if (sum > bestSum) { bestSum = sum; best = positionOf(x, y); }
  }
  return best ? best.join(",") : "1";
}

/** A new table: the old game is over and its board hidden; the controls fit the game. */
function resetPlay() {
  game.id++; // replies about the old game are dropped
  Object.assign(game, { spec: null, pos: null, over: true, report: null, bar: null, history: [] });
  $("play-area").hidden = true;
  $("play-options").innerHTML = "";
  $("play-log").innerHTML = "";
  $("play-status").textContent = `Press “New game” to play ${view.info ? view.info.game : "this game"}.`;
  delete $("play-status").dataset.over;
  $("play-pos").value = suggestStart();
  const n = view.players;
  $("seat-label").hidden = !n;
  $("first-label").hidden = !!n;
  if (n) {
    const seat = $("play-seat");
    seat.innerHTML = "";
    for (let i = 1; i <= n; i++) seat.insertAdjacentHTML("beforeend", `<option value="${i - 1}">player ${i}${i === 1 ? " (moves first)" : ""}</option>`);
  }
}

/** A new game from the start box, or (`restore`, from a link) the game in progress:
 *  the seat to move. */
async function startGame(restore) {
  // Until the new game is ready, the old one's status and options must not look live.
  game.over = true;
  $("play-status").textContent = "Starting…";
  delete $("play-status").dataset.over;
  for (const b of $("play-options").querySelectorAll("button")) b.disabled = true;
  let pos = $("play-pos").value.split(",").map((s) => parseInt(s.trim(), 10));
  if (view.info && !view.info.writes_numbers) {
    // The game's own form: the server reads it (and `start`).
    try {
      pos = (await api("value", { ...gameFields(), position: $("play-pos").value.trim() })).position;
    } catch (e) {
      $("play-status").innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
      return;
    }
  } else if (pos.some((n) => !Number.isFinite(n) || n < 0)) {
    $("play-status").innerHTML = `<span class="error">the start position is coordinates like 4,7</span>`;
    return;
  }
  const players = view.players || 2;
  const you = view.players ? parseInt($("play-seat").value, 10) || 0 : ($("play-first").value === "human" ? 0 : 1);
  game.id++;
  Object.assign(game, {
    spec: gameFields(), pos, turn: restore ? restore.turn % players : 0, you, players, history: [], over: false,
    family: parseSpec($("spec").value.trim()).name,
  });
  $("play-log").innerHTML = "";
  $("play-area").hidden = false;
  updateHash();
  await step();
}

function logLine(text) {
  const li = document.createElement("li");
  li.textContent = text;
  $("play-log").appendChild(li);
}

const who = (seat) => (game.players > 2 ? `player ${seat + 1}` : "");

async function step() {
  const id = game.id;
  let report, bar;
  try {
    report = await api("moves", { ...game.spec, position: posText(game.pos) });
    bar = boardKind() === "bar" ? await api("bar", { ...game.spec, position: posText(game.pos) }) : null;
  } catch (e) {
    if (id === game.id) $("play-status").innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
    return;
  }
  if (id !== game.id) return; // the game was replaced meanwhile
  game.report = report;
  game.bar = bar;
  const options = game.report.options || [];
  const mine = game.turn === game.you;
  if (options.length === 0) {
    game.over = true;
    if (game.players > 2) {
      // No move left: every seat's rank, counted from the player to move.
      const rank = game.report.ranks[(game.you - game.turn + game.players) % game.players];
      $("play-status").textContent = `No move is left at ${posText(game.pos)}. You (player ${game.you + 1}) rank ${rank} of ${game.players}.`;
      $("play-status").dataset.over = rank === 1 ? "human" : "computer";
      $("play-status").dataset.rank = String(rank);
    } else {
      // The mover loses in normal play (the position is P), wins in misère.
      const moverLoses = game.report.outcome === "P";
      const youWin = mine !== moverLoses;
      $("play-status").textContent = `Game over at ${posText(game.pos)}: ${youWin ? "you win!" : "the computer wins."}`;
      $("play-status").dataset.over = youWin ? "human" : "computer";
    }
    renderPlay();
    return;
  }
  if (!mine) {
    $("play-status").textContent = `The computer${game.players > 2 ? ` (${who(game.turn)})` : ""} is thinking…`;
    renderPlay();
    try {
      const m = await api("play", { ...game.spec, position: posText(game.pos), level: $("play-level").value, seed: Math.floor(Math.random() * 1e9) });
      if (id !== game.id) return;
      game.history.push({ pos: game.pos, turn: game.turn });
      // In class mode the computer's reasons (values, P-positions) stay hidden too.
      logLine(`computer${game.players > 2 ? ` (${who(game.turn)})` : ""}: ${posText(m.from)} → ${posText(m.to)}${hidden() ? "" : ` — ${m.explanation}`}`);
      game.pos = m.to;
      game.turn = (game.turn + 1) % game.players;
      updateHash(); // the link holds the position after the computer's reply too
    } catch (e) {
      $("play-status").innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
      return;
    }
    return step();
  }
  yourMoveStatus();
  delete $("play-status").dataset.over;
  renderPlay();
}

/** "Your move from …", with the position's value unless the answers are hidden. */
function yourMoveStatus() {
  const r = game.report;
  const you = game.players > 2 ? ` (player ${game.you + 1})` : "";
  $("play-status").textContent = hidden()
    ? `Your move${you} from ${posText(game.pos)}.`
    : game.players > 2
      ? `Your move${you} from ${posText(game.pos)}: class ${r.class}, you rank ${r.rank} with best play.`
      : `Your move from ${posText(game.pos)} (G = ${r.grundy ?? "?"}, ${r.outcome}-position).`;
}

async function humanMove(to) {
  if (game.over || game.turn !== game.you) return;
  game.history.push({ pos: game.pos, turn: game.turn });
  logLine(`you${game.players > 2 ? ` (${who(game.turn)})` : ""}: ${posText(game.pos)} → ${posText(to)}`);
  game.pos = to;
  game.turn = (game.turn + 1) % game.players;
  // Until the reply comes, the old options must not look playable.
  $("play-status").textContent = `You moved to ${posText(to)}.`;
  for (const b of $("play-options").querySelectorAll("button")) b.disabled = true;
  updateHash();
  await step();
}

function undo() {
  let i = game.history.length - 1;
  while (i >= 0 && game.history[i].turn !== game.you) i--;
  if (i < 0 || !game.spec) return;
  game.pos = game.history[i].pos;
  game.history.length = i;
  game.turn = game.you;
  game.over = false;
  logLine(`undo: back at ${posText(game.pos)}`);
  $("play-status").textContent = `Back at ${posText(game.pos)}…`;
  for (const b of $("play-options").querySelectorAll("button")) b.disabled = true;
  updateHash();
  step();
}

function renderPlay() {
  const box = $("play-options");
  box.innerHTML = "";
  const options = (game.report && game.report.options) || [];
  const nplayer = game.players > 2;
  const ranks = options.map((o) => o.rank).filter((r) => r !== undefined);
  const bestRank = Math.min(...ranks), worstRank = Math.max(...ranks);
  const secret = hidden();
  for (const o of options) {
    const b = document.createElement("button");
    if (secret) {
      b.textContent = posText(o.position);
      b.title = "a move (values hidden in class mode)";
    } else if (nplayer) {
      b.className = o.rank === bestRank ? "rank-best" : o.rank === worstRank ? "rank-worst" : "";
      b.textContent = `${posText(o.position)} (you rank ${o.rank})`;
      b.title = `class ${o.class}: with best play you finish ${o.rank} of ${game.players}`;
    } else {
      b.className = o.winning ? "win" : "lose";
      b.textContent = `${posText(o.position)} (G=${o.grundy ?? "?"})`;
      b.title = o.winning ? "a winning move: to a P-position" : "the opponent can win from there";
    }
    b.setAttribute("aria-label", `move to ${posText(o.position)}: ${b.title}`);
    b.disabled = game.over || game.turn !== game.you;
    b.addEventListener("click", () => humanMove(o.position));
    box.appendChild(b);
  }
  renderBoard();
}

/** The board alone (its focus ring included), without rebuilding the move buttons. */
function renderBoard() {
  const options = (game.report && game.report.options) || [];
  const kind = boardKind();
  if (kind === "board") drawBoard(options);
  else if (kind === "bar") drawBar();
  else if (kind === "picture") drawPicture(options);
  else if (kind === "graph") drawGraph(options);
  else if (kind === "list") boardContext(1, 1);
  else drawStones();
  drawBoardFocus();
}

// The board is shared by the three drawings: `hits` maps clicks to moves.
let hits = [];

/** A move's place on the board while the answers are hidden: neither green nor red. */
const MOVE_COLOUR = "rgba(70,110,200,0.4)";

function boardContext(width, height) {
  const c = $("board");
  if (c.width !== width) c.width = width;
  if (c.height !== height) c.height = height;
  const g = c.getContext("2d");
  g.clearRect(0, 0, c.width, c.height);
  hits = [];
  return [c, g];
}

/** Ryuoh's piece: the dragon king of shogi (a promoted rook), drawn as a shogi piece
 *  with a rook and the promotion mark; Wythoff's: the queen. */
function drawPiece(g, family, cx, cy, s) {
  if (family === "ryuoh") {
    const w = s * 0.8, h = s * 0.86;
    g.beginPath();
    g.moveTo(cx, cy - h / 2);
    g.lineTo(cx + w * 0.42, cy - h * 0.28);
    g.lineTo(cx + w / 2, cy + h / 2);
    g.lineTo(cx - w / 2, cy + h / 2);
    g.lineTo(cx - w * 0.42, cy - h * 0.28);
    g.closePath();
    g.fillStyle = "#f3d9a0"; g.fill();
    g.strokeStyle = "#5a3a10"; g.lineWidth = 1.5; g.stroke();
    g.fillStyle = "#b00000";
    g.font = `${s * 0.5}px serif`;
    g.textAlign = "center"; g.textBaseline = "middle";
    g.fillText("♜", cx, cy + h * 0.08);
    g.font = `bold ${s * 0.3}px sans-serif`;
    g.fillText("+", cx + w * 0.3, cy - h * 0.12);
    return "dragon king";
  }
  g.fillStyle = "#243447";
  g.textAlign = "center"; g.textBaseline = "middle";
  if (family === "wythoff") {
    g.font = `${s * 0.8}px serif`;
    g.fillText("♛", cx, cy);
    return "queen";
  }
  g.beginPath(); g.arc(cx, cy, s * 0.32, 0, 2 * Math.PI); g.fill();
  return "piece";
}

function drawBoard(options) {
  const [x0, y0] = game.pos;
  const n = Math.max(x0, y0) + 1;
  const L = 30, T = 24;
  const s = Math.max(8, Math.min(40, 400 / n));
  const [c, g] = boardContext(L + n * s + 10, T + n * s + 10);
  // y = 0 on top, as in the table.
  const origin = (x, y) => [L + x * s, T + y * s];
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
    const [px, py] = origin(x, y);
    g.fillStyle = (x + y) % 2 ? "#e8d9b5" : "#f7efdc";
    g.fillRect(px, py, s, s);
  }
  g.fillStyle = "#333"; g.font = "11px sans-serif";
  const step = labelStep(s, String(n - 1).length);
  g.textAlign = "center"; g.textBaseline = "bottom";
  for (let x = 0; x < n; x += step) g.fillText(String(x), origin(x, 0)[0] + s / 2, T - 3);
  g.textAlign = "right"; g.textBaseline = "middle";
  for (let y = 0; y < n; y += step) g.fillText(String(y), L - 4, origin(0, y)[1] + s / 2);
  for (const o of options) {
    const [x, y] = o.position;
    const [px, py] = origin(x, y);
    g.fillStyle = hidden() ? MOVE_COLOUR : o.winning ? "rgba(40,180,40,0.75)" : "rgba(220,60,60,0.45)";
    g.fillRect(px + 1, py + 1, s - 2, s - 2);
    if (!hidden()) {
      g.fillStyle = "#000";
      g.font = `${Math.max(8, s * 0.35)}px monospace`;
      g.textAlign = "center"; g.textBaseline = "middle";
      g.fillText(String(o.grundy ?? "?"), px + s / 2, py + s / 2);
    }
    hits.push({ x: px, y: py, w: s, h: s, to: o.position });
  }
  const [px, py] = origin(x0, y0);
  const piece = drawPiece(g, game.family, px + s / 2, py + s / 2, s);
  c.dataset.piece = piece;
  c.setAttribute("aria-label", `Board ${n}×${n}, y = 0 on top: the ${piece} at ${x0},${y0}; ${hidden() ? "click a highlighted square to move" : "click a green square to win"}; arrow keys choose a move, Enter plays it`);
  g.strokeStyle = "#000"; g.lineWidth = 1;
  g.strokeRect(L, T, n * s, n * s);
}

function drawStones() {
  const names = (view.info && view.info.coordinate_names) || [];
  const r = 11;
  const [c, g] = boardContext(480, Math.max(80, 30 + game.pos.length * 36));
  const options = (game.report && game.report.options) || [];
  c.dataset.piece = "stones";
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
      const good = match && (game.players > 2 ? match.rank === 1 : match.winning);
      g.fillStyle = match ? (hidden() ? MOVE_COLOUR : good ? "#6c6" : "#d88") : "#889";
      g.fill();
      if (match) hits.push({ x: cx - r, y: y - r, w: 2 * r, h: 2 * r, to });
    }
  });
}

/** The cells of a picture position (`..##/B###`): rows of characters. */
const pictureRows = (p) => p.split("/").map((r) => [...r]);

/** The cells a move empties: filled in `from` (not '.' nor '#' for Cram's covered
 *  squares), different in `to`. */
function changedCells(from, to) {
  const a = pictureRows(from), b = pictureRows(to);
  const out = [];
  const bar = from.includes("B");
  // A bar's option is cropped: align it on the bitter square.
  let dr = 0, dc = 0;
  if (bar) {
    const find = (rows) => { for (let r = 0; r < rows.length; r++) { const c = rows[r].indexOf("B"); if (c >= 0) return [r, c]; } return [0, 0]; };
    const [ra, ca] = find(a), [rb, cb] = find(b);
    dr = rb - ra; dc = cb - ca;
  }
  a.forEach((row, r) => row.forEach((ch, c) => {
    const there = (b[r + dr] || [])[c + dc];
    const full = bar ? ch !== "." : ch === ".";
    const stays = bar ? there !== undefined && there !== "." : there === ".";
    if (full && !stays) out.push(`${r},${c}`);
  }));
  return out;
}

/** Cells picked so far on a board where one click does not name a move (Cram's
 *  dominoes: the first square, then the second). */
let picked = [];

function drawPicture(options) {
  const rows = pictureRows(game.pos);
  const h = rows.length, w = Math.max(...rows.map((r) => r.length));
  const s = Math.max(10, Math.min(48, 440 / w, 360 / h));
  const [c, g] = boardContext(w * s + 8, h * s + 8);
  c.dataset.piece = "picture";
  const bar = game.pos.includes("B");
  const moves = options.map((o) => ({ o, cells: changedCells(game.pos, o.position) }));
  rows.forEach((row, r) => row.forEach((ch, col) => {
    const x = 4 + col * s, y = 4 + r * s, key = `${r},${col}`;
    g.fillStyle = bar ? (ch === "B" ? "#222" : ch === "#" ? "#7b4a2a" : "#fff") : ch === "." ? "#f7efdc" : "#556";
    g.fillRect(x + 1, y + 1, s - 2, s - 2);
    if (picked.includes(key)) { g.strokeStyle = "#06c"; g.lineWidth = 3; g.strokeRect(x + 2, y + 2, s - 4, s - 4); }
    const mine = moves.filter((m) => m.cells.includes(key) && picked.every((p) => m.cells.includes(p)));
    if (!mine.length) return;
    // A bar breaks off the smallest piece holding the square; a board plays the move
    // once the squares picked name one.
    const best = bar ? [...mine].sort((a, b) => a.cells.length - b.cells.length)[0] : mine.length === 1 ? mine[0] : null;
    hits.push({ x, y, w: s, h: s, to: best ? best.o.position : null, cell: key });
    const good = mine.some((m) => (game.players > 2 ? m.o.rank === 1 : m.o.winning));
    g.fillStyle = hidden() ? MOVE_COLOUR : good ? "rgba(60,200,60,0.35)" : "rgba(230,60,60,0.2)";
    g.fillRect(x + 1, y + 1, s - 2, s - 2);
  }));
  c.setAttribute("aria-label", `${game.pos}: click ${bar ? "a square to break the bar there" : "the squares of a move"}`);
}

/** Vertex layout and edges of the named graphs (path, cycle, grid, complete); other
 *  graphs are drawn on a circle without edges (their options are the buttons). */
function graphShape(n) {
  const spec = (game.spec && game.spec.game) || $("spec").value;
  const m = /graph=(path|cycle|grid|complete)\((\d+)(?:,(\d+))?\)/.exec(spec);
  const kind = m ? m[1] : "other";
  const rows = kind === "grid" ? +m[2] : 1, cols = kind === "grid" ? +m[3] : kind === "path" ? +m[2] : 0;
  const count = m ? (kind === "grid" ? rows * cols : +m[2]) : n;
  const adj = (u, v) => {
    if (kind === "path") return Math.abs(u - v) === 1;
    if (kind === "grid") return (Math.floor(u / cols) === Math.floor(v / cols) && Math.abs(u - v) === 1) || Math.abs(u - v) === cols;
    if (kind === "cycle") return (u - v + count) % count === 1 || (v - u + count) % count === 1;
    if (kind === "complete") return u !== v;
    return false;
  };
  const place = (v, s) => (kind === "grid" || kind === "path")
    ? [30 + (v % Math.max(cols, 1)) * s, 30 + Math.floor(v / Math.max(cols, 1)) * s]
    : [200 + 150 * Math.cos((2 * Math.PI * v) / count), 190 + 150 * Math.sin((2 * Math.PI * v) / count)];
  return { kind, count, rows, cols, adj, place, known: !!m };
}

function drawGraph(options) {
  const left = game.pos.vertices;
  const shape = graphShape(Math.max(...left, ...options.flatMap((o) => o.position.vertices), 0) + 1);
  const s = shape.kind === "grid" || shape.kind === "path" ? Math.max(16, Math.min(48, 420 / Math.max(shape.cols, 1))) : 0;
  const width = s ? 60 + (shape.cols - 1) * s : 400, height = s ? 60 + (shape.rows - 1) * s : 380;
  const [c, g] = boardContext(width, height);
  c.dataset.piece = "graph";
  g.strokeStyle = "#bbb"; g.lineWidth = 1.5;
  for (let u = 0; u < shape.count; u++) for (let v = u + 1; v < shape.count; v++) if (shape.adj(u, v)) {
    const [x1, y1] = shape.place(u, s), [x2, y2] = shape.place(v, s);
    g.beginPath(); g.moveTo(x1, y1); g.lineTo(x2, y2); g.stroke();
  }
  const r = s ? Math.max(6, s * 0.3) : 12;
  for (let v = 0; v < shape.count; v++) {
    const [x, y] = shape.place(v, s);
    const here = left.includes(v);
    // Taking v removes v and its neighbours still there.
    const removed = left.filter((u) => u === v || shape.adj(u, v));
    const move = here && shape.known
      ? options.find((o) => removed.every((u) => !o.position.vertices.includes(u)) && o.position.vertices.length === left.length - removed.length)
      : null;
    g.beginPath(); g.arc(x, y, r, 0, 2 * Math.PI);
    g.fillStyle = !here ? "#fff" : move ? (hidden() ? MOVE_COLOUR : move.winning || move.rank === 1 ? "#6c6" : "#d88") : "#889";
    g.fill(); g.strokeStyle = "#333"; g.stroke();
    g.fillStyle = "#000"; g.font = `${Math.max(9, r)}px sans-serif`; g.textAlign = "center"; g.textBaseline = "middle";
    g.fillText(String(v), x, y);
    if (move) hits.push({ x: x - r, y: y - r, w: 2 * r, h: 2 * r, to: move.position });
  }
  c.setAttribute("aria-label", `vertices ${posText(game.pos)} left: click a vertex to take it and its neighbours`);
}

/** Geometry of the chocolate bar on the board (CLI drawing's layout: the bitter square
 *  at the bottom, columns numbered underneath, rows at the left, the staircase dashed). */
let barGeometry = null;

function drawBar() {
  const bar = game.bar;
  if (!bar) return;
  const lo = Math.min(...bar.columns.map((col) => col.index));
  const hi = Math.max(...bar.columns.map((col) => col.index));
  const top = Math.max(...bar.columns.map((col) => Math.max(col.height, col.limit || 0)), 1);
  const L = 28, T = 26, B = 24;
  const s = Math.max(8, Math.min(44, 440 / (hi - lo + 1), 380 / top));
  const [c, g] = boardContext(L + (hi - lo + 1) * s + 12, T + top * s + B);
  const origin = (col, row) => [L + (col - lo) * s, T + (top - row - 1) * s];
  barGeometry = { lo, s, origin };
  c.dataset.piece = "bar";
  g.fillStyle = "#000"; g.font = "12px sans-serif"; g.textAlign = "left"; g.textBaseline = "top";
  g.fillText(bar.caption, 4, 4);
  for (const col of bar.columns) for (let row = 0; row < col.height; row++) {
    const [px, py] = origin(col.index, row);
    const bitter = col.index === 0 && row === 0;
    g.fillStyle = bitter ? "#222" : "#7b4a2a";
    g.fillRect(px + 1, py + 1, s - 2, s - 2);
    if (bitter) { g.fillStyle = "#fff"; g.font = `${Math.min(11, s * 0.3)}px sans-serif`; g.textAlign = "center"; g.textBaseline = "middle"; g.fillText("bitter", px + s / 2, py + s / 2); }
    // Clicking a square breaks off the smallest piece that holds it.
    const best = bar.options
      .filter((o) => o.eaten.some(([a, b]) => a === col.index && b === row))
      .sort((a, b) => a.eaten.length - b.eaten.length)[0];
    if (best) hits.push({ x: px, y: py, w: s, h: s, to: best.position, bar: best });
  }
  // The staircase: the height each column has before anything is cut from above.
  g.strokeStyle = "#c07000"; g.lineWidth = 2; g.setLineDash([5, 3]);
  g.beginPath();
  let prev = null;
  for (const col of [...bar.columns].sort((a, b) => a.index - b.index)) {
    if (!col.limit) { prev = null; continue; }
    const [px] = origin(col.index, 0);
    const yTop = T + (top - col.limit) * s;
    if (prev === null) g.moveTo(px, T + top * s); else g.lineTo(px, prev);
    g.lineTo(px, yTop); g.lineTo(px + s, yTop);
    prev = yTop;
  }
  if (prev !== null) g.lineTo(origin(hi, 0)[0] + s, T + top * s);
  g.stroke(); g.setLineDash([]);
  g.fillStyle = "#333"; g.font = "11px sans-serif";
  g.textAlign = "center"; g.textBaseline = "top";
  for (let col = lo; col <= hi; col++) g.fillText(String(col), origin(col, 0)[0] + s / 2, T + top * s + 4);
  g.textAlign = "right"; g.textBaseline = "middle";
  for (let row = 0; row < top; row++) g.fillText(String(row), L - 4, origin(0, row)[1] + s / 2);
  c.setAttribute("aria-label", `${bar.caption}: columns ${lo} to ${hi}, the bitter square at the bottom left of column 0; click a square to break the bar there`);
}

function setupBoard() {
  const c = $("board");
  const at = (ev) => {
    const r = c.getBoundingClientRect();
    const x = ((ev.clientX - r.left) * c.width) / r.width, y = ((ev.clientY - r.top) * c.height) / r.height;
    return hits.find((h) => x >= h.x && x < h.x + h.w && y >= h.y && y < h.y + h.h);
  };
  c.addEventListener("click", (ev) => activateHit(at(ev)));
  // Keyboard: arrows walk through the places that make a move, Enter or space plays it.
  c.addEventListener("keydown", (ev) => {
    const places = hits.filter((h) => h.to || h.cell);
    if (!places.length) return;
    const next = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key];
    if (next) {
      ev.preventDefault();
      boardFocus = boardFocus < 0 ? (next > 0 ? 0 : places.length - 1) : (boardFocus + next + places.length) % places.length;
      renderBoard();
    } else if ((ev.key === "Enter" || ev.key === " ") && boardFocus >= 0) {
      ev.preventDefault();
      activateHit(places[Math.min(boardFocus, places.length - 1)]);
    }
  });
  c.addEventListener("focus", () => { if (game.report) renderBoard(); });
  c.addEventListener("blur", () => { if (game.report) renderBoard(); });
  c.addEventListener("mousemove", (ev) => {
    if (!game.bar || !barGeometry) return;
    const hit = at(ev);
    drawBar();
    if (!hit) return;
    const g = c.getContext("2d");
    g.fillStyle = hidden() ? MOVE_COLOUR : hit.bar.winning ? "rgba(60,220,60,0.55)" : "rgba(230,60,60,0.5)";
    for (const [a, b] of hit.bar.eaten) {
      const [px, py] = barGeometry.origin(a, b);
      g.fillRect(px, py, barGeometry.s, barGeometry.s);
    }
  });
}

/** The place of the board chosen with the arrow keys (an index into its move places). */
let boardFocus = -1;

/** A click (or Enter) on a place of the board: the move it names, or one square of a
 *  move of several squares. */
function activateHit(hit) {
  if (hit && hit.to) { picked = []; boardFocus = -1; humanMove(hit.to); return; }
  if (hit && hit.cell && boardKind() === "picture") {
    // One square of several moves: remember it, the next square names the move.
    picked = picked.includes(hit.cell) ? [] : [...picked, hit.cell];
    renderPlay();
  } else if (picked.length) { picked = []; renderPlay(); }
}

/** The keyboard's place on the board: a dashed ring, and its move said aloud. */
function drawBoardFocus() {
  const c = $("board");
  const places = hits.filter((h) => h.to || h.cell);
  const out = $("board-focus");
  if (document.activeElement !== c || boardFocus < 0 || !places.length) {
    // The same text focused or not: nothing beside the board moves under the pointer.
    out.textContent = places.length ? "Keyboard: focus the board, arrow keys choose a move, Enter plays it." : "";
    return;
  }
  boardFocus = Math.min(boardFocus, places.length - 1);
  const h = places[boardFocus];
  const g = c.getContext("2d");
  g.strokeStyle = "#f90"; g.lineWidth = 3; g.setLineDash([4, 3]);
  g.strokeRect(h.x + 1.5, h.y + 1.5, h.w - 3, h.h - 3);
  g.setLineDash([]);
  out.textContent = h.to ? `Enter: move to ${posText(h.to)}` : `Enter: pick square ${h.cell}`;
}

/** Page coordinates of the centre of the first clickable piece of the board moving to `to`. */
function boardTarget(to) {
  const c = $("board");
  c.scrollIntoView({ block: "center" });
  const r = c.getBoundingClientRect();
  const hit = hits.find((h) => posText(h.to) === posText(to));
  if (!hit) return null;
  return [r.left + ((hit.x + hit.w / 2) * r.width) / c.width, r.top + ((hit.y + hit.h / 2) * r.height) / c.height];
}

/** The point of the board (CSS pixels from its top-left corner) that moves to `to`. */
function boardPoint(to) {
  const c = $("board"), r = c.getBoundingClientRect();
  const hit = hits.find((h) => posText(h.to) === posText(to));
  if (!hit) return null;
  return { x: ((hit.x + hit.w / 2) * r.width) / c.width, y: ((hit.y + hit.h / 2) * r.height) / c.height };
}

/** The point of the board (CSS pixels from its top-left corner) of a picture's cell
 *  `row,col`, when it is clickable. */
function cellPoint(key) {
  const c = $("board"), r = c.getBoundingClientRect();
  const hit = hits.find((h) => h.cell === key);
  if (!hit) return null;
  return { x: ((hit.x + hit.w / 2) * r.width) / c.width, y: ((hit.y + hit.h / 2) * r.height) / c.height };
}

// ---- challenge ------------------------------------------------------------

const challenge = { list: [], i: 0, score: 0, answered: 0, fields: null, params: null, done: false };

function resetChallenge() {
  Object.assign(challenge, { list: [], i: 0, score: 0, answered: 0, fields: null, params: null, done: false });
  $("ch-card").hidden = true;
  $("ch-score").textContent = "";
}

/** Deals a round; `progress` (from a link): the rounds already answered and the score. */
async function deal(progress) {
  const params = {
    difficulty: $("ch-difficulty").value,
    seed: parseInt($("ch-seed").value, 10) || 0,
    count: Math.max(1, Math.min(100, parseInt($("ch-count").value, 10) || 5)),
  };
  const fields = gameFields();
  $("ch-score").textContent = "Dealing…";
  try {
    const r = await api("challenge", { ...fields, ...params });
    Object.assign(challenge, { list: r.challenges, i: 0, score: 0, answered: 0, fields, params, done: false });
    $("ch-score").textContent = "";
    const n = r.challenges.length;
    if (progress && progress.answered > 0) {
      const answered = Math.min(progress.answered, n);
      Object.assign(challenge, { answered, score: Math.min(progress.score, answered), i: Math.min(answered, n - 1) });
      if (answered >= n) {
        challenge.done = true;
        $("ch-score").textContent = `Final score: ${challenge.score} of ${n}.`;
        updateHash();
        return;
      }
      $("ch-score").textContent = `Score: ${challenge.score} of ${answered}.`;
    }
    updateHash();
    await showRound();
  } catch (e) {
    $("ch-score").innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
  }
}

async function showRound() {
  const c = challenge.list[challenge.i];
  const card = $("ch-card");
  card.hidden = false;
  card.dataset.round = String(challenge.i);
  card.dataset.question = c.question;
  $("ch-feedback").textContent = "";
  $("ch-feedback").className = "";
  $("ch-next").hidden = true;
  updateHash();
  const answers = $("ch-answers");
  answers.innerHTML = "";
  const head = `Round ${challenge.i + 1} of ${challenge.list.length}: `;
  if (c.question === "outcome") {
    $("ch-question").textContent = `${head}is ${posText(c.position)} a P-position (the player to move loses) or an N-position (the player to move wins)?`;
    for (const a of ["P", "N"]) {
      const b = document.createElement("button");
      b.textContent = a;
      b.dataset.answer = a;
      b.setAttribute("aria-label", a === "P" ? "P: the player to move loses" : "N: the player to move wins");
      b.addEventListener("click", () => answerOutcome(a));
      answers.appendChild(b);
    }
  } else {
    $("ch-question").textContent = `${head}make the winning move from ${posText(c.position)}.`;
    const r = await api("moves", { ...challenge.fields, position: posText(c.position) });
    for (const o of r.options || []) {
      const b = document.createElement("button");
      b.textContent = posText(o.position);
      b.dataset.answer = posText(o.position);
      b.setAttribute("aria-label", `move to ${posText(o.position)}`);
      b.addEventListener("click", () => answerMove(o));
      answers.appendChild(b);
    }
  }
  answers.querySelector("button")?.focus();
}

function finishAnswer(right, html, given, correct) {
  challenge.answered++;
  if (right) challenge.score++;
  for (const b of $("ch-answers").querySelectorAll("button")) {
    b.disabled = true;
    if (b.dataset.answer === given) b.classList.add("chosen");
    if (correct.includes(b.dataset.answer)) b.classList.add("correct");
  }
  $("ch-feedback").className = right ? "right" : "wrong";
  $("ch-feedback").innerHTML = html;
  const last = challenge.i + 1 >= challenge.list.length;
  $("ch-score").textContent = last
    ? `Final score: ${challenge.score} of ${challenge.list.length}.`
    : `Score: ${challenge.score} of ${challenge.answered}.`;
  challenge.done = last;
  $("ch-card").dataset.answered = String(challenge.answered);
  $("ch-next").hidden = last;
  updateHash();
  if (!last) $("ch-next").focus();
}

async function explanationFor(pos) {
  try {
    const e = await api("explain", { ...challenge.fields, position: posText(pos) });
    return `<div>${mexHtml(e)}</div>` + (e.closed_form ? `<div class="steps">${escapeHtml(e.closed_form)}</div>` : "");
  } catch (err) {
    return "";
  }
}

async function answerOutcome(given) {
  const c = challenge.list[challenge.i];
  const right = given === c.outcome;
  let html = right ? `Right: ${posText(c.position)} is an ${c.outcome}-position (G = ${c.grundy}).` : "";
  if (!right) {
    html = c.outcome === "P"
      ? `Not quite: ${posText(c.position)} is a P-position. Its value is 0: no option has value 0, so every move hands the opponent an N-position.`
      : `Not quite: ${posText(c.position)} is an N-position (G = ${c.grundy} ≠ 0): the player to move wins by moving to ${c.winning_moves.map(posText).join(" or ")}.`;
    html = escapeHtml(html) + (await explanationFor(c.position));
  }
  finishAnswer(right, html, given, [c.outcome]);
}

async function answerMove(option) {
  const c = challenge.list[challenge.i];
  const right = c.winning_moves.some((m) => posText(m) === posText(option.position));
  let html;
  if (right) {
    html = escapeHtml(`Right: ${posText(option.position)} is a P-position (G = 0): whatever your opponent does, you can answer.`);
  } else {
    html = escapeHtml(`Not quite: ${posText(option.position)} has G = ${option.grundy ?? "?"} ≠ 0, so your opponent can win from there. ` +
      `The winning move${c.winning_moves.length > 1 ? "s" : ""} from ${posText(c.position)}: ${c.winning_moves.map(posText).join(", ")} (G = 0).`) +
      (await explanationFor(option.position));
  }
  finishAnswer(right, html, posText(option.position), c.winning_moves.map(posText));
}

// ---- worksheet ------------------------------------------------------------

let worksheetUrls = [];

function resetWorksheet() {
  for (const u of worksheetUrls) URL.revokeObjectURL(u);
  worksheetUrls = [];
  $("ws-preview").innerHTML = "";
  $("ws-links").innerHTML = "";
  $("ws-print").disabled = true;
  window.nimlab.worksheet = null;
}

async function makeWorksheet() {
  resetWorksheet();
  const size = parseInt($("size").value, 10) || 16;
  try {
    const r = await api("worksheet", {
      ...gameFields(), size, blank: $("ws-blank").value, seed: parseInt($("ws-seed").value, 10) || 0, slice: view.fixed,
    });
    window.nimlab.worksheet = r;
    // Printed, the exercise starts with a line for the name and the date, and the rules.
    const rules = view.info && view.info.rules ? `<p><b>The game.</b> ${escapeHtml(view.info.rules)}.</p>` : "";
    $("ws-preview").innerHTML =
      `<figure aria-label="worksheet"><div class="ws-head"><p>Name: <span class="fill-line"></span> Date: <span class="fill-line short"></span></p>${rules}` +
      `<p>Fill in the ${r.blanked} dashed cells: the Grundy value of a position is the least value that none of its options has (the mex).</p></div>` +
      `${r.svg}<figcaption>Exercise: ${r.blanked} cells to fill in</figcaption></figure>` +
      `<figure aria-label="answers">${r.svg_answers}<figcaption>Answers</figcaption></figure>`;
    const base = r.game.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "") || "game";
    for (const [label, text, type, file] of [
      ["LaTeX (tabular)", r.latex, "application/x-tex", `${base}-worksheet.tex`],
      ["LaTeX (TikZ)", r.tikz, "application/x-tex", `${base}-worksheet-tikz.tex`],
      ["SVG", r.svg, "image/svg+xml", `${base}-worksheet.svg`],
      ["SVG answers", r.svg_answers, "image/svg+xml", `${base}-answers.svg`],
    ]) {
      const url = URL.createObjectURL(new Blob([text], { type }));
      worksheetUrls.push(url);
      $("ws-links").insertAdjacentHTML("beforeend", `<a href="${url}" download="${file}">${label}</a>`);
    }
    $("ws-print").disabled = false;
  } catch (e) {
    $("ws-preview").innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
  }
}

// ---- shareable URL ---------------------------------------------------------

function updateHash() {
  const p = new URLSearchParams();
  const fields = gameFields();
  if (fields.rules) p.set("rules", fields.rules);
  else {
    p.set("game", $("spec").value.trim());
    if ($("misere").checked) p.set("misere", "1");
    if ($("pass").checked) p.set("pass", "1");
  }
  p.set("size", $("size").value);
  if (view.palette !== "classic") p.set("palette", view.palette);
  const slice = $("slice").value.trim();
  if (slice && view.table && view.table.dims.length > 2) p.set("slice", slice);
  const formula = $("formula").value.trim();
  const claim = document.querySelector("input[name=claim]:checked").value;
  if (formula && formula !== view.declared) {
    p.set("formula", formula);
    if (claim !== "formula") p.set("claim", claim);
  }
  if (view.selected && view.table) p.set("cell", positionOf(...view.selected).join(","));
  if (game.pos && game.spec) {
    p.set("pos", posText(game.pos));
    p.set("turn", String(game.turn));
    p.set("you", String(game.you));
  }
  if ($("play-level").value !== "perfect") p.set("level", $("play-level").value);
  if (challenge.params) {
    p.set("challenge", `${challenge.params.difficulty}:${challenge.params.seed}:${challenge.params.count}`);
    if (challenge.answered) p.set("progress", `${challenge.answered}:${challenge.score}`);
  }
  if (classroom.on) p.set("class", classroom.revealed ? "revealed" : "1");
  if (classroom.presenter) p.set("presenter", "1");
  if ($("ws-blank").value !== $("ws-blank").defaultValue) p.set("blank", $("ws-blank").value);
  if ($("ws-seed").value !== $("ws-seed").defaultValue) p.set("wsseed", $("ws-seed").value);
  const hash = "#" + p.toString();
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

/** Copies the link of the lesson, and says so beside the button. */
async function copyLink() {
  updateHash();
  const link = location.href;
  let copied = false;
  try {
    await navigator.clipboard.writeText(link);
    copied = true;
  } catch {
    // No clipboard permission: the link is selected in a box to copy by hand.
  }
  const out = $("copy-status");
  out.dataset.link = link;
  if (copied) out.textContent = "Link copied ✓";
  else {
    out.innerHTML = `Copy this link: <input id="link-text" readonly size="30" aria-label="Link of this lesson">`;
    $("link-text").value = link;
    $("link-text").select();
  }
  clearTimeout(copyLink.timer);
  copyLink.timer = setTimeout(() => { out.textContent = ""; }, 8000);
}

/** Class mode, the reveal and the presenter view: redraws everything that shows answers. */
function setClassroom(changes) {
  Object.assign(classroom, changes);
  if (!classroom.on) classroom.revealed = false;
  $("class-mode").checked = classroom.on;
  $("presenter").checked = classroom.presenter;
  $("reveal").hidden = !classroom.on;
  $("reveal").textContent = classroom.revealed ? "Hide answers" : "Show answers";
  $("reveal").setAttribute("aria-pressed", String(classroom.revealed));
  document.body.classList.toggle("class-mode", hidden());
  document.body.classList.toggle("presenter", classroom.presenter);
  draw();
  // The selected cell: hidden answers are revealed step by step again.
  if (cellAnswer.e) {
    Object.assign(reveal, hidden() || classroom.presenter ? { ...cellAnswer, k: 0 } : { e: null, k: 0 });
    renderCell();
  }
  if (game.report && !game.over && game.turn === game.you) yourMoveStatus();
  if (game.report) renderPlay();
  updateHash();
}

async function fromHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (!p.get("game") && !p.get("rules")) return false;
  if (p.get("rules")) {
    $("rules").value = p.get("rules");
    $("rules-box").open = true;
  } else {
    $("rules-box").open = false;
    $("spec").value = p.get("game");
    $("misere").checked = p.get("misere") === "1";
    $("pass").checked = p.get("pass") === "1";
  }
  if (p.get("size")) $("size").value = p.get("size");
  if (p.get("palette") === "safe") { view.palette = "safe"; $("palette").value = "safe"; }
  $("slice").value = p.get("slice") || "";
  $("play-level").value = p.get("level") === "easy" ? "easy" : "perfect";
  $("ws-blank").value = p.get("blank") ?? $("ws-blank").defaultValue;
  $("ws-seed").value = p.get("wsseed") ?? $("ws-seed").defaultValue;
  const mode = p.get("class");
  Object.assign(classroom, { on: !!mode, revealed: mode === "revealed", presenter: p.get("presenter") === "1" });
  setClassroom({});
  await showTable();
  if (p.get("formula")) {
    $("formula").value = p.get("formula");
    const claim = p.get("claim") === "p_positions" ? "p_positions" : "formula";
    document.querySelector(`input[name=claim][value=${claim}]`).checked = true;
  }
  const cell = (p.get("cell") || "").split(",").map((c) => parseInt(c, 10));
  if (view.table && cell.every((c) => c >= 0)) {
    const at = cellOf(cell);
    if (at) await selectCell(...at);
  }
  if (p.get("pos")) {
    $("play-pos").value = p.get("pos");
    const you = parseInt(p.get("you"), 10) || 0;
    if (view.players) $("play-seat").value = String(you);
    else $("play-first").value = you === 1 ? "computer" : "human";
    const turn = parseInt(p.get("turn"), 10);
    await startGame(Number.isFinite(turn) && turn >= 0 ? { turn } : undefined);
  }
  const ch = p.get("challenge");
  if (ch) {
    const [difficulty, seed, count] = ch.split(":");
    if (["easy", "medium", "hard"].includes(difficulty)) $("ch-difficulty").value = difficulty;
    $("ch-seed").value = String(parseInt(seed, 10) || 0);
    $("ch-count").value = String(parseInt(count, 10) || 5);
    const [answered, score] = (p.get("progress") || "0:0").split(":").map((n) => parseInt(n, 10) || 0);
    await deal({ answered, score });
  }
  updateHash();
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
  // Games first, then the families built from other games; the rules family has the
  // paste box instead.
  for (const [group, label] of [["game", "Games"], ["transform", "Built from other games"]]) {
    const box = document.createElement("optgroup");
    box.label = label;
    for (const f of catalog.filter((g) => g.group === group)) {
      const o = document.createElement("option");
      o.value = f.name;
      o.textContent = f.name;
      o.title = f.summary;
      box.appendChild(o);
    }
    sel.appendChild(box);
  }
  sel.value = "wythoff";
  sel.addEventListener("change", () => {
    if (!sel.value) return;
    $("rules-box").open = false; // a family from the catalog, not the pasted rules
    showParams({});
    specFromFamily();
    showTable();
  });
  showParams({});
  $("show-table").addEventListener("click", showTable);
  $("spec").addEventListener("keydown", (ev) => { if (ev.key === "Enter") showTable(); });
  $("check").addEventListener("click", checkFormula);
  $("prove").addEventListener("click", proveFormula);
  $("play-start").addEventListener("click", () => startGame());
  $("play-undo").addEventListener("click", undo);
  $("ch-deal").addEventListener("click", deal);
  $("ch-next").addEventListener("click", () => { challenge.i++; showRound(); });
  $("ws-make").addEventListener("click", makeWorksheet);
  $("ws-print").addEventListener("click", () => window.print());
  $("palette").addEventListener("change", () => { view.palette = $("palette").value; draw(); updateHash(); });
  $("copy-link").addEventListener("click", copyLink);
  $("class-mode").addEventListener("change", () => setClassroom({ on: $("class-mode").checked, revealed: false }));
  $("reveal").addEventListener("click", () => setClassroom({ revealed: !classroom.revealed }));
  $("presenter").addEventListener("change", () => setClassroom({ presenter: $("presenter").checked }));
  for (const id of ["formula", "play-level", "ws-blank", "ws-seed"]) $(id).addEventListener("change", updateHash);
  for (const r of document.querySelectorAll("input[name=claim]")) r.addEventListener("change", updateHash);
  for (const id of ["misere", "pass"]) $(id).addEventListener("change", showTable);
  if (!(await fromHash())) await showTable();
  // A link followed on this page (only the hash changes): the page follows it too.
  window.addEventListener("hashchange", () => { fromHash(); });
  document.body.dataset.ready = "1";
}

/** The colour of the canvas at the centre of cell (x, y), for tests: [r, g, b]. */
function cellPixel(x, y) {
  const s = cellSize();
  const [px, py] = cellOrigin(x, y);
  const d = $("heatmap").getContext("2d").getImageData(Math.round(px + s / 2), Math.round(py + s / 4), 1, 1).data;
  return [d[0], d[1], d[2]];
}

window.nimlab = { cellPixel,  cellCenter, boardTarget, boardPoint, cellPoint, view, game, challenge, classroom, selectCell, cellColours, worksheet: null };
init();
