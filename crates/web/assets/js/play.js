// nimlab explorer: Play against the computer: the game's turns, the move buttons, Undo.

import { $, api, escapeHtml, posText } from "./api.js";
import { game, hidden, view } from "./state.js";
import { family, gameFields } from "./controls.js";
import { planeSize, positionOf, valueAt } from "./heatmap.js";
import { boardContext, drawBar, drawBoard, drawBoardFocus, drawGraph, drawPicture, drawStones } from "./board.js";
import { updateHash } from "./link.js";

// ---- play -----------------------------------------------------------------


export function boardKind() {
  if (typeof game.pos === "string") return "picture";
  if (game.pos && Array.isArray(game.pos.vertices)) return "graph";
  if (!Array.isArray(game.pos) || game.pos.some((c) => typeof c !== "number")) return "list";
  const caps = (view.info && view.info.capabilities) || [];
  if (caps.includes("columns-picture")) return "bar";
  if (caps.includes("line-moves") && game.pos.length === 2) return "board";
  return "stones";
}

/** A start position for the game in the table: the valid cell farthest from 0 within a
 *  small square (so a first game is short). */
export function suggestStart() {
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
export function resetPlay() {
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
export async function startGame(restore) {
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
    family: view.family || "",
  });
  $("play-log").innerHTML = "";
  $("play-area").hidden = false;
  updateHash();
  await step();
}

export function logLine(text) {
  const li = document.createElement("li");
  li.textContent = text;
  $("play-log").appendChild(li);
}

export const who = (seat) => (game.players > 2 ? `player ${seat + 1}` : "");

export async function step() {
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
export function yourMoveStatus() {
  const r = game.report;
  const you = game.players > 2 ? ` (player ${game.you + 1})` : "";
  $("play-status").textContent = hidden()
    ? `Your move${you} from ${posText(game.pos)}.`
    : game.players > 2
      ? `Your move${you} from ${posText(game.pos)}: class ${r.class}, you rank ${r.rank} with best play.`
      : `Your move from ${posText(game.pos)} (G = ${r.grundy ?? "?"}, ${r.outcome}-position).`;
}

export async function humanMove(to) {
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

export function undo() {
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

export function renderPlay() {
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
export function renderBoard() {
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
