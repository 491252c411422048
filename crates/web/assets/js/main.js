// nimlab explorer: The page's start: the controls wired, the first table or the link's lesson.
// nimlab explorer: plain JavaScript, no build step. Every value, explanation, challenge
// and worksheet comes from /api (the library); the page only draws.
//
// Orientation, as in `nimlab table` (text, PNG, LaTeX, SVG) and `nimlab draw`: columns
// x left to right, rows y top to bottom, y = 0 on top — the papers' table layout.

import { $, api } from "./api.js";
import { challenge, classroom, game, reveal, view } from "./state.js";
import { catalog, family, showParams, specFromFamily } from "./controls.js";
import { cellCenter, cellColours, cellOrigin, cellSize, checkFormula, draw, proveFormula, selectCell, setupHeatmap, showTable } from "./heatmap.js";
import { startGame, undo } from "./play.js";
import { boardPoint, boardTarget, cellPoint, setupBoard } from "./board.js";
import { deal, showRound } from "./challenge.js";
import { makeWorksheet } from "./worksheet.js";
import { copyLink, fromHash, setClassroom, updateHash } from "./link.js";

// ---- start ----------------------------------------------------------------

async function init() {
  setupHeatmap();
  setupBoard();
  try {
    catalog.push(...(await api("games")).games);
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
export function cellPixel(x, y) {
  const s = cellSize();
  const [px, py] = cellOrigin(x, y);
  const d = $("heatmap").getContext("2d").getImageData(Math.round(px + s / 2), Math.round(py + s / 4), 1, 1).data;
  return [d[0], d[1], d[2]];
}

window.nimlab = { cellPixel,  cellCenter, boardTarget, boardPoint, cellPoint, view, game, challenge, classroom, selectCell, cellColours, worksheet: null };
init();
