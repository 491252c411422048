// nimlab explorer: The play board: the drawings of boards, stones, pictures, graphs and bars, clicks and keys.

import { $, posText } from "./api.js";
import { game, hidden, view } from "./state.js";
import { family } from "./controls.js";
import { labelStep } from "./heatmap.js";
import { boardKind, humanMove, renderBoard, renderPlay, step } from "./play.js";

// The board is shared by the three drawings: `hits` maps clicks to moves.
export let hits = [];

/** A move's place on the board while the answers are hidden: neither green nor red. */
export const MOVE_COLOUR = "rgba(70,110,200,0.4)";

/** The board canvas at this size, cleared, its move places forgotten.
 *  @param {number} width
 *  @param {number} height
 *  @returns {[import("./api.js").Control, CanvasRenderingContext2D]} */
export function boardContext(width, height) {
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
export function drawPiece(g, family, cx, cy, s) {
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

export function drawBoard(options) {
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

export function drawStones() {
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
export const pictureRows = (p) => p.split("/").map((r) => [...r]);

/** The cells a move empties: filled in `from` (not '.' nor '#' for Cram's covered
 *  squares), different in `to`. */
export function changedCells(from, to) {
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
export let picked = [];

export function drawPicture(options) {
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
export function graphShape(n) {
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

export function drawGraph(options) {
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
export let barGeometry = null;

export function drawBar() {
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

export function setupBoard() {
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
export let boardFocus = -1;

/** A click (or Enter) on a place of the board: the move it names, or one square of a
 *  move of several squares. */
export function activateHit(hit) {
  if (hit && hit.to) { picked = []; boardFocus = -1; humanMove(hit.to); return; }
  if (hit && hit.cell && boardKind() === "picture") {
    // One square of several moves: remember it, the next square names the move.
    picked = picked.includes(hit.cell) ? [] : [...picked, hit.cell];
    renderPlay();
  } else if (picked.length) { picked = []; renderPlay(); }
}

/** The keyboard's place on the board: a dashed ring, and its move said aloud. */
export function drawBoardFocus() {
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
export function boardTarget(to) {
  const c = $("board");
  c.scrollIntoView({ block: "center" });
  const r = c.getBoundingClientRect();
  const hit = hits.find((h) => posText(h.to) === posText(to));
  if (!hit) return null;
  return [r.left + ((hit.x + hit.w / 2) * r.width) / c.width, r.top + ((hit.y + hit.h / 2) * r.height) / c.height];
}

/** The point of the board (CSS pixels from its top-left corner) that moves to `to`. */
export function boardPoint(to) {
  const c = $("board"), r = c.getBoundingClientRect();
  const hit = hits.find((h) => posText(h.to) === posText(to));
  if (!hit) return null;
  return { x: ((hit.x + hit.w / 2) * r.width) / c.width, y: ((hit.y + hit.h / 2) * r.height) / c.height };
}

/** The point of the board (CSS pixels from its top-left corner) of a picture's cell
 *  `row,col`, when it is clickable. */
export function cellPoint(key) {
  const c = $("board"), r = c.getBoundingClientRect();
  const hit = hits.find((h) => h.cell === key);
  if (!hit) return null;
  return { x: ((hit.x + hit.w / 2) * r.width) / c.width, y: ((hit.y + hit.h / 2) * r.height) / c.height };
}
