// nimlab explorer: The challenge: dealt positions, answers scored and explained.

import { $, api, escapeHtml, posText } from "./api.js";
import { challenge } from "./state.js";
import { gameFields } from "./controls.js";
import { mexHtml } from "./heatmap.js";
import { updateHash } from "./link.js";

// ---- challenge ------------------------------------------------------------


export function resetChallenge() {
  Object.assign(challenge, { list: [], i: 0, score: 0, answered: 0, fields: null, params: null, done: false });
  $("ch-card").hidden = true;
  $("ch-score").textContent = "";
}

/** Deals a round; `progress` (from a link): the rounds already answered and the score. */
export async function deal(progress) {
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

export async function showRound() {
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

export function finishAnswer(right, html, given, correct) {
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

export async function explanationFor(pos) {
  try {
    const e = await api("explain", { ...challenge.fields, position: posText(pos) });
    return `<div>${mexHtml(e)}</div>` + (e.closed_form ? `<div class="steps">${escapeHtml(e.closed_form)}</div>` : "");
  } catch (err) {
    return "";
  }
}

export async function answerOutcome(given) {
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

export async function answerMove(option) {
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
