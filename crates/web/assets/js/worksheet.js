// nimlab explorer: The worksheet: the exercise and answers from /api/worksheet, downloads, print.

import { $, api, escapeHtml } from "./api.js";
import { view } from "./state.js";
import { gameFields } from "./controls.js";

// ---- worksheet ------------------------------------------------------------

export let worksheetUrls = [];

export function resetWorksheet() {
  for (const u of worksheetUrls) URL.revokeObjectURL(u);
  worksheetUrls = [];
  $("ws-preview").innerHTML = "";
  $("ws-links").innerHTML = "";
  $("ws-print").disabled = true;
  window.nimlab.worksheet = null;
}

export async function makeWorksheet() {
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
