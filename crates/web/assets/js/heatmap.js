// nimlab explorer: The table as a heatmap, a cell's explanation (the mex worked out), the formula check and proof.

import { $, $q, api, escapeHtml, posText } from "./api.js";
import { cellAnswer, classroom, game, hidden, reveal, view } from "./state.js";
import { gameFields, syncControls } from "./controls.js";
import { resetPlay, step } from "./play.js";
import { resetChallenge } from "./challenge.js";
import { resetWorksheet } from "./worksheet.js";
import { updateHash } from "./link.js";

// ---- heatmap --------------------------------------------------------------

export const ML = 40, MT = 26, AREA = 560; // label margins and the plotting square



export function flatten(values) {
  const out = [];
  const walk = (v) => (Array.isArray(v) ? v.forEach(walk) : out.push(v));
  walk(values);
  return out;
}

export function valueAt(x, y) {
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

export function planeSize() {
  const d = view.table.dims;
  if (d.length === 1) return [Math.min(view.wrap, d[0]), Math.ceil(d[0] / view.wrap)];
  return [d[0], d[1]];
}

/** The cell (x, y) of the picture showing a position of the table, or null when the
 *  position is not on the plane shown (another slice). */
export function cellOf(pos) {
  if (!Array.isArray(pos) || !view.table) return null;
  if (view.table.dims.length === 1) return [pos[0] % view.wrap, Math.floor(pos[0] / view.wrap)];
  if (pos.length !== view.table.dims.length || !pos.slice(2).every((c, i) => c === view.fixed[i])) return null;
  return [pos[0], pos[1] ?? 0];
}

export function cellSize() {
  const [w, h] = planeSize();
  return (AREA / Math.max(w, h)) * view.zoom;
}

/** Canvas pixel of the top-left corner of cell (x, y); y grows downward. */
export function cellOrigin(x, y) {
  const s = cellSize();
  return [ML + view.panX + x * s, MT + view.panY + y * s];
}

export function hslToRgb(h, s, l) {
  s /= 100; l /= 100;
  const k = (n) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0), f(8), f(4)].map((v) => Math.round(v * 255));
}

// Viridis at five stops: ordered in lightness, readable with every colour vision.
export const VIRIDIS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];

export function rgbOf(v, max) {
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

/** Relative luminance (WCAG) of a colour.
 *  @param {number[]} rgb red, green and blue, 0 to 255 */
export function luminance(rgb) {
  const [r, g, b] = rgb;
  const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Fill and digit colour of a cell: the digit black or white, whichever contrasts more. */
export function cellColours(v, max) {
  const rgb = rgbOf(v, max);
  const L = luminance(rgb);
  const text = (L + 0.05) / 0.05 >= 1.05 / (L + 0.05) ? "#000" : "#fff";
  return { fill: `rgb(${rgb.join(",")})`, text, rgb };
}

/** Label every k-th coordinate: k the smallest of 1, 2, 5, 10, 20, … that leaves room. */
export function labelStep(s, digits) {
  const need = Math.max(14, digits * 7 + 4);
  for (const k of [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]) if (k * s >= need) return k;
  return 1000;
}

export function draw() {
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
export function drawLegend() {
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

export function canvasPoint(ev) {
  const c = $("heatmap"), r = c.getBoundingClientRect();
  return [((ev.clientX - r.left) * c.width) / r.width, ((ev.clientY - r.top) * c.height) / r.height];
}

export function cellAt(ev) {
  const [px, py] = canvasPoint(ev);
  if (px < ML || py < MT) return [-1, -1];
  const s = cellSize();
  return [Math.floor((px - ML - view.panX) / s), Math.floor((py - MT - view.panY) / s)];
}

/** Page coordinates of the centre of cell (x, y) (used by tests and links). */
export function cellCenter(x, y) {
  const c = $("heatmap");
  c.scrollIntoView({ block: "nearest" });
  const r = c.getBoundingClientRect();
  const s = cellSize();
  const [px, py] = cellOrigin(x, y);
  return [r.left + ((px + s / 2) * r.width) / c.width, r.top + ((py + s / 2) * r.height) / c.height];
}

export function describeCell(x, y) {
  const v = valueAt(x, y);
  if (v === undefined) return " ";
  const what = view.players ? "class" : "G";
  return `(${positionOf(x, y).join(",")})  ${what} = ${v === null ? "not a position" : hidden() ? "?" : v}`;
}

// Once a game is shown (its table, or none for a picture game): the controls follow
// it, the panels about the last game start afresh, and the page and its address show it.
function shown(info, fields, typed) {
  syncControls(info, fields, typed);
  resetPosition();
  resetPlay();
  resetChallenge();
  resetWorksheet();
  draw();
  updateHash();
}

export async function showTable() {
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
      shown(info, fields, await typedInfo(info, fields));
      return;
    }
    const t = await api("table", { ...fields, size });
    const typed = await typedInfo(info, fields);
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
    shown(info, fields, typed);
  } catch (e) {
    if (generation === view.generation) $("table-info").innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
  }
}

/** The game info of the spec as typed (the family and arguments the controls show):
 *  `info` itself unless misère or pass wrapped the spec sent.
 *  @param {any} info
 *  @param {{game?: string, rules?: string}} fields */
export async function typedInfo(info, fields) {
  const spec = $("spec").value.trim();
  if (fields.rules || fields.game === spec) return info;
  try {
    return await api("game", { game: spec });
  } catch {
    return { family: null, arguments: [] };
  }
}

export function positionOf(x, y) {
  if (view.table.dims.length === 1) return [y * view.wrap + x];
  return [x, y, ...view.fixed].slice(0, view.table.dims.length);
}

export function resetPosition() {
  $("cell-info").textContent = "Click a cell of the table (or focus it and press Enter) to see why it has its value.";
  $("explain").innerHTML = "";
  $("options").innerHTML = "";
  $("nimsum").textContent = "";
}

/** The options list: one button per option (arrow keys move, Enter shows it). */
export function listOptions(options, pos, nplayer) {
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
export function mexHtml(e) {
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
export function nimSumHtml(ns) {
  const bits = ns.binary.length;
  const row = (label, g, bin, cls) =>
    `<tr class="${cls || ""}"><td>${escapeHtml(label)}</td><td>${g}</td>${[...bin].map((b) => `<td class="bit">${b}</td>`).join("")}</tr>`;
  let html = `<div>nim-sum of the components, column by column in binary:</div><table class="nimsum" aria-label="nim-sum in binary">`;
  html += `<tr><td></td><td>G</td>${Array.from({ length: bits }, (_, i) => `<td class="bit">${2 ** (bits - 1 - i)}</td>`).join("")}</tr>`;
  ns.rows.forEach((r, i) => { html += row(`${i ? "⊕ " : ""}${r.game} at ${r.position.join(",")}`, r.grundy, r.binary); });
  html += row("= nim-sum", ns.total, ns.binary, "total");
  return html + "</table>";
}


/** The selected position's panel: everything when the answers are shown, else as far
 *  as the step-by-step reveal has gone. */
export function renderCell() {
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


export async function selectCell(x, y) {
  const t = view.table;
  const [w, h] = t ? planeSize() : [0, 0];
  if (!t || x < 0 || y < 0 || x >= w || y >= h) return;
  const v = valueAt(x, y);
  if (v === undefined) return;
  view.selected = [x, y];
  view.cursor = [x, y];
  $("hover").textContent = describeCell(x, y);
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
    // On a phone the explanation is below the table: bring it into view.
    if (window.matchMedia("(max-width: 700px)").matches) $("cell").scrollIntoView({ block: "nearest", behavior: "smooth" });
  } catch (e) {
    if (generation === view.generation) $("cell-info").innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
  }
}

export function setupHeatmap() {
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
    // Focused by a click, the hover line keeps the cell under the pointer.
    if (view.table && !c.matches(":hover")) $("hover").textContent = describeCell(...view.cursor);
    draw();
  });
  c.addEventListener("blur", draw);
}

// ---- formula check --------------------------------------------------------

export async function checkFormula() {
  const text = $("formula").value.trim();
  const claim = $q("input[name=claim]:checked").value;
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

export async function proveFormula() {
  const text = $("formula").value.trim();
  const claim = $q("input[name=claim]:checked").value;
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
