// nimlab explorer: The link of the lesson (written after every change, read back), Copy link, class mode.

import { $, $q, posText } from "./api.js";
import { cellAnswer, challenge, classroom, game, hidden, reveal, view } from "./state.js";
import { gameFields } from "./controls.js";
import { cellOf, draw, positionOf, renderCell, selectCell, showTable } from "./heatmap.js";
import { renderPlay, startGame, yourMoveStatus } from "./play.js";
import { deal } from "./challenge.js";

// ---- shareable URL ---------------------------------------------------------

export function updateHash() {
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
  const claim = $q("input[name=claim]:checked").value;
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

/** The timer that clears Copy link's confirmation. */
let copyTimer = 0;

/** Copies the link of the lesson, and says so beside the button. */
export async function copyLink() {
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
  clearTimeout(copyTimer);
  copyTimer = setTimeout(() => { out.textContent = ""; }, 8000);
}

/** Class mode, the reveal and the presenter view: redraws everything that shows answers. */
export function setClassroom(changes) {
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

export async function fromHash() {
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
    $q(`input[name=claim][value=${claim}]`).checked = true;
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
