// End-to-end test of the nimlab web explorer in real headless Chromium (Debian's
// /usr/bin/chromium driven by playwright-core). Starts `nimlab serve --port 0`, opens
// the page, renders a table, clicks a cell (the mex worked out), checks labels and
// orientation against the CLI's text table, switches between families (every panel,
// the URL and the play area follow), plays games (two and three players) to the end,
// plays a challenge round, exports a worksheet (compiled with pdflatex when installed,
// else parsed), and saves the screenshots of docs/.
//
//   node e2e/explorer.test.mjs            (NIMLAB_BIN overrides the binary)

import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const bin =
  process.env.NIMLAB_BIN ||
  path.join(process.env.CARGO_TARGET_DIR || path.join(root, "target"), "release", "nimlab");

let passed = 0;
let failed = 0;
async function check(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok - ${name}`);
  } catch (e) {
    failed++;
    console.log(`not ok - ${name}\n  ${String(e && e.stack ? e.stack : e).split("\n").join("\n  ")}`);
  }
}

function startServer() {
  return new Promise((resolve, reject) => {
    const server = spawn(bin, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    server.on("error", reject);
    server.on("exit", (code) => reject(new Error(`nimlab serve exited with ${code}`)));
    server.stdout.on("data", (d) => {
      text += d;
      const m = text.match(/http:\/\/[^\s/]+\//);
      if (m) resolve({ server, url: m[0] });
    });
  });
}

const { server, url } = await startServer();
const userDataDir = mkdtempSync(path.join(tmpdir(), "nimlab-e2e-"));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1280, height: 1150 },
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const page = context.pages()[0] || (await context.newPage());
const pageErrors = [];
page.on("pageerror", (e) => pageErrors.push(e.message));
// A waiting limit, not a speed test: CI runs this beside the Rust tests on two cores.
page.setDefaultTimeout(60000);

async function showTable(spec, size) {
  await page.fill("#spec", spec);
  await page.fill("#size", String(size));
  await page.evaluate(() => { document.getElementById("table-info").textContent = ""; });
  await page.click("#show-table");
  await page.waitForFunction(
    (s) => {
      const t = document.getElementById("table-info");
      return t.textContent.startsWith(s + ":") || t.querySelector(".error");
    },
    spec,
  );
}

/** The page area of a section, for a screenshot of it alone. */
async function sectionClip(selector) {
  await page.evaluate((s) => document.querySelector(s).scrollIntoView({ block: "start" }), selector);
  const r = await page.evaluate((s) => { const b = document.querySelector(s).getBoundingClientRect(); return { x: b.left, y: b.top, width: b.width, height: b.height }; }, selector);
  return { x: Math.max(0, r.x), y: Math.max(0, r.y), width: Math.min(r.width, 1280), height: Math.min(r.height, 1100) };
}

async function clickCell(x, y) {
  const [px, py] = await page.evaluate(([a, b]) => window.nimlab.cellCenter(a, b), [x, y]);
  await page.mouse.click(px, py);
}

/** A position as the page writes it (the CLI's form). */
const posText = (p) => (Array.isArray(p) ? p.join(",") : String(p));

async function waitYourMove() {
  try {
    await page.waitForFunction(() => document.getElementById("play-status").textContent.startsWith("Your move"));
  } catch (e) {
    throw new Error(`no "Your move": the status says "${await page.textContent("#play-status")}"`);
  }
}

/** Plays from the current state to the end: the human takes a winning move when there
 *  is one (the first green button), else the first move. Returns who won. */
async function playToTheEnd() {
  for (let i = 0; i < 200; i++) {
    const over = await page.evaluate(() => document.getElementById("play-status").dataset.over);
    if (over) return over;
    const status = await page.textContent("#play-status");
    if (status.startsWith("Your move")) {
      const button = (await page.$("#play-options button.win:not([disabled])")) || (await page.$("#play-options button:not([disabled])"));
      if (!button) {
        // The status was read before the page moved on; look again.
        await page.waitForTimeout(50);
        continue;
      }
      await button.click();
      await page.waitForFunction((s) => document.getElementById("play-status").textContent !== s, status);
    } else {
      await page.waitForTimeout(50);
    }
  }
  throw new Error("the game did not end");
}

mkdirSync(path.join(root, "docs", "img"), { recursive: true });
try {
  await page.goto(url);
  await page.waitForSelector("body[data-ready='1']");

  await check("the page renders the default table (wythoff, 16 × 16)", async () => {
    await page.waitForSelector("#heatmap[data-cells='256']");
    assert.match(await page.textContent("#table-info"), /^wythoff: box 16×16/);
    const family = await page.$$eval("#family option", (o) => o.map((x) => x.value));
    assert.ok(family.includes("ryuoh") && family.includes("nim"), "the catalog is listed");
    // Games and the families built from games, apart; the rules family has its box.
    const groups = await page.$$eval("#family optgroup", (g) => g.map((x) => [x.label, [...x.children].map((o) => o.value)]));
    assert.deepEqual(groups.map((g) => g[0]), ["Games", "Built from other games"]);
    assert.ok(groups[1][1].includes("misere") && !groups[0][1].includes("misere"), JSON.stringify(groups));
    assert.ok(!family.includes("rules"));
    assert.match(await page.textContent("#family-summary"), /^Rules: Wythoff's game/);
  });

  await check("hovering a cell shows its value", async () => {
    const [px, py] = await page.evaluate(() => window.nimlab.cellCenter(3, 5));
    await page.mouse.move(px, py);
    assert.equal((await page.textContent("#hover")).trim(), "(3,5)  G = 0");
  });

  await check("clicking a cell lists its options with winning moves highlighted", async () => {
    await clickCell(4, 6);
    await page.waitForSelector("#options li.winning");
    const winning = await page.$$eval("#options li.winning", (l) => l.map((x) => x.textContent));
    assert.deepEqual(winning.map((t) => t.split(" ")[0]), ["3,5"]);
    assert.match(await page.textContent("#cell-info"), /4,6: G = 9, N-position/);
    const highlighted = await page.evaluate(() => window.nimlab.view.highlighted.winning);
    assert.deepEqual(highlighted, [[3, 5]]);
  });

  await check("a wrong formula shows its mismatches", async () => {
    await page.fill("#formula", "x xor y");
    await page.click("#check");
    await page.waitForSelector("#check-result.bad");
    assert.match(await page.textContent("#check-result"), /mismatches in 256 positions/);
    assert.ok((await page.evaluate(() => window.nimlab.view.mismatches.length)) > 0);
  });

  await check("Nim: the formula holds and the nim-sum panel shows binary", async () => {
    await showTable("nim", 16);
    assert.equal(await page.inputValue("#formula"), "", "the old game's formula is gone");
    await page.fill("#formula", "x xor y");
    await page.click("#check");
    await page.waitForSelector("#check-result.good");
    assert.match(await page.textContent("#check-result"), /holds on all 256 positions/);
    // A false claim refuted in plain words, the counterexample outlined on the table.
    await page.fill("#formula", "x + y");
    await page.click("#prove");
    await page.waitForSelector("#check-result.bad");
    assert.match(await page.textContent("#check-result"), /^Not true for every position\. It fails at 1,1 \(outlined in red on the table\)/);
    assert.deepEqual(await page.evaluate(() => window.nimlab.view.mismatches), [[1, 1]]);
    await page.fill("#formula", "x xor y");
    await clickCell(3, 5);
    await page.waitForFunction(() => document.getElementById("nimsum").textContent.includes("110"));
    assert.match(await page.textContent("#nimsum"), /011[\s\S]*101[\s\S]*110/);
  });

  await check("the mex worked out: option values sorted, the least missing highlighted", async () => {
    await showTable("wythoff", 16);
    await clickCell(4, 6);
    await page.waitForSelector("#explain .chip.mex");
    assert.match(await page.textContent("#explain .mex-line"), /G\(4,6\) = mex\{0, 1, 2, 3, 4, 5, 6, 7, 8\} = 9/);
    assert.equal(await page.textContent("#explain .chip.mex"), "9");
    // Nim 3,5: Bouton's binary columns, the game's own explanation.
    await showTable("nim", 8);
    await clickCell(3, 5);
    await page.waitForFunction(() => document.getElementById("nimsum").textContent.includes("011 ⊕ 101 = 110"));
    // A sum of two games: the nim-sum column by column (wythoff 1,2 has G = 0; heap 3).
    await showTable("sum(wythoff,nim(heaps=1))", 6);
    await page.fill("#slice", "3");
    await showTable("sum(wythoff,nim(heaps=1))", 6);
    await clickCell(1, 2);
    await page.waitForSelector("table.nimsum tr.total");
    const total = await page.$$eval("table.nimsum tr.total td", (t) => t.map((x) => x.textContent));
    assert.deepEqual(total.slice(1), ["3", "1", "1"]);
    await page.fill("#slice", "");
  });

  await check("labels and orientation agree with the CLI's text table (y = 0 on top)", async () => {
    await showTable("ryuoh(p=3)", 12);
    const text = execFileSync(bin, ["table", "ryuoh(p=3)", "--size", "12"], { encoding: "utf8" });
    const rows = text.trim().split("\n");
    assert.match(rows[0], /^y\\x\s+0\s+1\s+2/);
    const cli = rows.slice(1).map((r) => r.trim().split(/\s+/).map(Number)); // [y, v(0,y), v(1,y), …]
    const page_ = await page.evaluate(() => {
      const v = window.nimlab.view, out = [];
      for (let y = 0; y < 12; y++) {
        const row = [];
        for (let x = 0; x < 12; x++) row.push(v.table.values[y * 12 + x]);
        out.push(row);
      }
      return out;
    });
    for (let y = 0; y < 12; y++) assert.deepEqual(page_[y], cli[y].slice(1), `row y = ${y}`);
    // Where the cells and labels are: row y = 0 on top, the label of row 5 beside it.
    const [, y0] = await page.evaluate(() => window.nimlab.cellCenter(0, 0));
    const [, y5] = await page.evaluate(() => window.nimlab.cellCenter(0, 5));
    assert.ok(y0 < y5, "y grows downward");
    const labels = await page.evaluate(() => window.nimlab.view.labels);
    const ys = labels.filter((l) => l.axis === "y").map((l) => l.value);
    const xs = labels.filter((l) => l.axis === "x").map((l) => l.value);
    assert.deepEqual(ys, [...Array(12).keys()]);
    assert.deepEqual(xs, [...Array(12).keys()]);
    // Hovering row 7, column 2 of the picture names (2,7) with the CLI's value.
    const [px, py] = await page.evaluate(() => window.nimlab.cellCenter(2, 7));
    await page.mouse.move(px, py);
    assert.equal((await page.textContent("#hover")).trim(), `(2,7)  G = ${cli[7][3]}`);
  });

  await check("digits contrast with their cells (WCAG 4.5:1) in both palettes", async () => {
    const worst = await page.evaluate(() => {
      const lum = ([r, g, b]) => [r, g, b].map((c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; })
        .reduce((s, c, i) => s + c * [0.2126, 0.7152, 0.0722][i], 0);
      let min = 99;
      for (const palette of ["classic", "safe"]) {
        window.nimlab.view.palette = palette;
        for (let v = 0; v <= 30; v++) {
          const c = window.nimlab.cellColours(v, 30);
          const a = lum(c.rgb), b = c.text === "#fff" ? 1 : 0;
          min = Math.min(min, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05));
        }
      }
      window.nimlab.view.palette = "classic";
      return min;
    });
    assert.ok(worst >= 4.5, `contrast ${worst}`);
  });

  await check("switching families: family, parameters, position, formula, play area and URL follow", async () => {
    // Ryuoh from the family selector, a game in progress.
    await page.selectOption("#family", "ryuoh");
    await page.waitForFunction(() => document.getElementById("table-info").textContent.startsWith("ryuoh"));
    assert.equal(await page.inputValue("#param-p"), "3");
    assert.match(await page.textContent("#hint-p"), /diagonal steps/);
    assert.equal(await page.isVisible("#play-area"), false, "no empty board before a game");
    await page.click("#play-start");
    await waitYourMove();
    assert.equal(await page.isVisible("#play-area"), true);
    assert.equal(await page.evaluate(() => document.getElementById("board").dataset.piece), "dragon king");
    await clickCell(2, 3);
    await page.waitForSelector("#explain .chip.mex");
    assert.match(page.url(), /pos=/);
    // A typed spec: chocolate-staircase.
    await showTable("chocolate-staircase(f=t/2)", 10);
    assert.equal(await page.inputValue("#family"), "chocolate-staircase");
    assert.equal(await page.inputValue("#param-f"), "t/2");
    assert.match(await page.textContent("#hint-f"), /staircase/);
    assert.match(await page.textContent("#cell-info"), /^Click a cell/);
    assert.equal(await page.$$eval("#options li", (l) => l.length), 0);
    assert.equal(await page.isVisible("#play-area"), false);
    assert.equal(await page.evaluate(() => window.nimlab.game.pos), null);
    assert.doesNotMatch(page.url(), /pos=/);
    assert.match(decodeURIComponent(page.url()), /game=chocolate-staircase\(f=t\/2\)/);
    await page.click("#play-start");
    await waitYourMove();
    const bar = await page.evaluate(() => ({ piece: document.getElementById("board").dataset.piece, w: document.getElementById("board").width, cols: window.nimlab.game.bar.columns.length }));
    assert.equal(bar.piece, "bar");
    assert.ok(bar.w >= 44 * bar.cols * 0.5, `the bar fills the board (${JSON.stringify(bar)})`);
    // Wythoff from the selector: the chocolate game and its position leave the URL.
    await page.selectOption("#family", "wythoff");
    await page.waitForFunction(() => document.getElementById("table-info").textContent.startsWith("wythoff:"));
    assert.match(await page.textContent("#hint-a"), /Fraenkel/);
    assert.doesNotMatch(page.url(), /pos=/);
    assert.equal(await page.isVisible("#play-area"), false);
    // chocolate-staircase from the selector opens with f = t/2, not an error.
    await page.selectOption("#family", "chocolate-staircase");
    await page.waitForFunction(() => document.getElementById("table-info").textContent.startsWith("chocolate-staircase(f=t/2)"));
    // n-player Nim: seats, classes.
    await page.selectOption("#family", "nplayer-nim");
    await page.waitForFunction(() => document.getElementById("table-info").textContent.startsWith("nplayer-nim"));
    assert.match(await page.textContent("#table-info"), /classes of 3 players/);
    assert.equal(await page.isVisible("#seat-label"), true);
    assert.equal(await page.$$eval("#play-seat option", (o) => o.length), 3);
    // A pasted rules file: the placeholder itself is a valid one.
    const rules = await page.getAttribute("#rules", "placeholder");
    await page.evaluate(() => { document.getElementById("rules-box").open = true; });
    await page.fill("#rules", rules + '\ngrundy = "0"\n');
    await page.click("#show-table");
    await page.waitForFunction(() => document.getElementById("table-info").textContent.startsWith("rules(file=the pasted rules):"));
    assert.equal(await page.inputValue("#family"), "");
    assert.equal(await page.inputValue("#formula"), "0", "the rules file's claimed closed form");
    assert.match(decodeURIComponent(page.url()), /rules=name/);
    assert.equal(await page.isVisible("#seat-label"), false);
    await page.click("#check");
    await page.waitForSelector("#check-result.bad");
    // A link followed on the page (only the hash changes): back to a catalog game.
    await page.evaluate(() => { location.hash = "game=subtraction(s%3D%7B1%2C3%2C4%7D)&size=20"; });
    await page.waitForFunction(() => document.getElementById("table-info").textContent.startsWith("subtraction"));
    assert.equal(await page.inputValue("#family"), "subtraction");
    assert.equal(await page.inputValue("#param-s"), "{1,3,4}");
    assert.equal(await page.evaluate(() => document.getElementById("rules-box").open), false);
  });

  await check("n-player Nim in the page: you hold seat 2 of 3 and play to the end", async () => {
    await page.selectOption("#family", "nplayer-nim");
    await page.waitForFunction(() => document.getElementById("table-info").textContent.startsWith("nplayer-nim"));
    await page.fill("#play-pos", "3,4");
    await page.selectOption("#play-seat", "1");
    await page.click("#play-start");
    await page.waitForFunction(() => /Your move \(player 2\)/.test(document.getElementById("play-status").textContent));
    const first = await page.$$eval("#play-log li", (l) => l.map((x) => x.textContent));
    assert.match(first[0], /^computer \(player 1\)/);
    await playToTheEnd();
    assert.match(await page.textContent("#play-status"), /You \(player 2\) rank [123] of 3/);
  });

  await check("Cram and Node Kayles are played by clicking the board", async () => {
    await page.fill("#spec", "cram(rows=2,cols=3)");
    await page.click("#show-table");
    await page.waitForFunction(() => /positions are pictures/.test(document.getElementById("table-info").textContent));
    assert.equal(await page.inputValue("#play-pos"), "start");
    await page.selectOption("#play-first", "human");
    await page.click("#play-start");
    await waitYourMove();
    assert.match(await page.textContent("#play-status"), /from \.\.\.\/\.\.\. \(G = 1, N-position\)/);
    // A domino: the first square, then the second (the left column is a winning move).
    const box = await page.$("#board");
    const at = async (key) => {
      const p = await page.evaluate((k) => window.nimlab.cellPoint(k), key);
      assert.ok(p, `cell ${key} is clickable`);
      await box.click({ position: p });
    };
    await at("0,0");
    await at("1,0");
    await page.waitForFunction(() => document.querySelectorAll("#play-log li").length >= 1);
    assert.match((await page.$$eval("#play-log li", (l) => l.map((x) => x.textContent)))[0], /^you: \.\.\.\/\.\.\. → #\.\.\/#\.\./);
    assert.equal(await playToTheEnd(), "human");

    await page.fill("#spec", "node-kayles(graph=path(5))");
    await page.click("#show-table");
    await page.waitForFunction(() => /^node-kayles/.test(document.getElementById("table-info").textContent));
    await page.selectOption("#play-first", "human");
    await page.click("#play-start");
    await waitYourMove();
    // Dawson's chess on 5: taking the middle vertex (2) leaves {0,4}, a P-position.
    const p = await page.evaluate(() => window.nimlab.boardPoint({ vertices: [0, 4] }));
    assert.ok(p, "the middle vertex is a clickable winning move");
    await box.click({ position: p });
    assert.equal(await playToTheEnd(), "human");
  });

  await check("an error is shown, not thrown", async () => {
    await showTable("nosuchgame", 8);
    assert.match(await page.textContent("#table-info .error"), /nosuchgame/);
  });

  await check("play Ryuoh on the board to the end (the human plays the winning moves)", async () => {
    await showTable("ryuoh(p=3)", 12);
    await page.fill("#play-pos", "4,7");
    await page.selectOption("#play-first", "human");
    await page.click("#play-start");
    await waitYourMove();
    // The first move by clicking the board: the highlighted (green) cell (4,5).
    const target = await page.evaluate(() => window.nimlab.boardPoint([4, 5]));
    assert.ok(target, "the winning cell is on the board");
    await page.click("#board", { position: target });
    await page.waitForSelector("#play-log li");
    assert.match(await page.textContent("#play-log li"), /you: 4,7 → 4,5/);
    assert.match(page.url(), /pos=/, "the URL encodes the position");
    assert.equal(await playToTheEnd(), "human");
    const log = await page.$$eval("#play-log li", (l) => l.map((x) => x.textContent));
    assert.ok(log.some((t) => t.startsWith("computer:") && t.includes("remoteness")), "the computer prolongs the game");
  });

  await check("undo goes back to the human's last turn", async () => {
    await page.click("#play-undo");
    await waitYourMove();
  });

  await check("the shared URL restores game and position", async () => {
    const shared = page.url();
    const other = await context.newPage();
    await other.goto(shared);
    await other.waitForSelector("body[data-ready='1']");
    assert.match(await other.textContent("#table-info"), /^ryuoh\(p=3\)/);
    assert.match(await other.textContent("#play-status"), /Your move|Game over|thinking/);
    await other.close();
  });

  await check("play a chocolate bar, breaking it by clicking, to the end", async () => {
    await showTable("chocolate", 6);
    await page.fill("#play-pos", "2,3,1");
    await page.selectOption("#play-first", "computer");
    await page.click("#play-start");
    await waitYourMove();
    const move = await page.evaluate(() => window.nimlab.game.report.options[0].position);
    const target = await page.evaluate((m) => window.nimlab.boardPoint(m), move);
    assert.ok(target, "a square to break at");
    await page.click("#board", { position: target });
    try {
      await page.waitForFunction(() => [...document.querySelectorAll("#play-log li")].some((l) => l.textContent.startsWith("you:")), null, { timeout: 5000 });
    } catch (e) {
      const state = await page.evaluate(() => JSON.stringify({ status: document.getElementById("play-status").textContent, y: window.scrollY, rect: document.getElementById("board").getBoundingClientRect() }));
      throw new Error(`the click at ${JSON.stringify(target)} made no move: ${state}`);
    }
    assert.equal(await playToTheEnd(), "computer"); // 2,3,1 is a P-position: the computer wins
  });

  await check("play Nim with stones", async () => {
    await showTable("nim(heaps=3)", 8);
    await page.fill("#play-pos", "1,2,4");
    await page.selectOption("#play-first", "human");
    await page.click("#play-start");
    await waitYourMove();
    const target = await page.evaluate(() => window.nimlab.boardPoint([1, 2, 3]));
    assert.ok(target, "stone 3 of heap 3 leaves 1,2,3");
    await page.click("#board", { position: target });
    assert.equal(await playToTheEnd(), "human");
  });

  await check("keyboard: arrows move in the table, Enter explains, options are focusable", async () => {
    await showTable("wythoff", 16);
    await page.focus("#heatmap");
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
    for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowDown");
    assert.equal((await page.textContent("#hover")).trim(), "(3,5)  G = 0");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.getElementById("cell-info").textContent.startsWith("3,5: G = 0"));
    await page.focus("#options li button");
    await page.keyboard.press("ArrowDown");
    assert.equal(await page.evaluate(() => [...document.querySelectorAll("#options button")].indexOf(document.activeElement)), 1);
    assert.ok(await page.getAttribute("#heatmap", "aria-label"));
    await page.selectOption("#palette", "safe");
    assert.match(page.url(), /palette=safe/);
    await page.selectOption("#palette", "classic");
  });

  await check("the link holds the lesson: Nim to the end, reopened after the computer's reply", async () => {
    await showTable("nim(heaps=3)", 8);
    await page.fill("#play-pos", "3,5,6");
    await page.selectOption("#play-first", "human");
    await page.click("#play-start");
    await waitYourMove();
    const hashOf = (u) => new URLSearchParams(new URL(u).hash.slice(1));
    /** Opens the link in a fresh page: the position and the side to move it restores. */
    const reopen = async (link) => {
      const other = await context.newPage();
      other.on("pageerror", (e) => pageErrors.push(e.message));
      await other.goto(link);
      await other.waitForSelector("body[data-ready='1']");
      await other.waitForFunction(() => window.nimlab.game.report);
      const state = await other.evaluate(() => ({
        pos: window.nimlab.game.pos.join(","), turn: window.nimlab.game.turn, you: window.nimlab.game.you,
        status: document.getElementById("play-status").textContent,
      }));
      await other.close();
      return state;
    };
    // You move 3,5,6 → 0,5,6; the computer answers 0,5,5: the link says so, your turn.
    await page.click('#play-options button[aria-label^="move to 0,5,6"]');
    await waitYourMove();
    const pos = await page.evaluate(() => window.nimlab.game.pos.join(","));
    assert.equal(pos, "0,5,5");
    assert.equal(hashOf(page.url()).get("pos"), "0,5,5");
    assert.equal(hashOf(page.url()).get("turn"), "0");
    const again = await reopen(page.url());
    assert.deepEqual([again.pos, again.turn, again.you], ["0,5,5", 0, 0]);
    assert.match(again.status, /^Your move from 0,5,5/);
    // Undo is written too.
    await page.click('#play-options button[aria-label^="move to 0,5,4"]');
    await waitYourMove();
    await page.click("#play-undo");
    await page.waitForFunction(() => document.getElementById("play-status").textContent.startsWith("Your move from 0,5,5"));
    assert.equal(hashOf(page.url()).get("pos"), "0,5,5");
    // Copy link confirms visibly.
    await page.click("#copy-link");
    await page.waitForFunction(() => document.getElementById("copy-status").textContent.trim() !== "");
    assert.match(await page.textContent("#copy-status"), /Link copied|Copy this link/);
    assert.equal(await page.getAttribute("#copy-status", "data-link"), page.url());
    // To the end: the computer wins from a P-position; the link reopens the end.
    assert.equal(await playToTheEnd(), "computer");
    assert.equal(hashOf(page.url()).get("pos"), "0,0,0");
    const end = await reopen(page.url());
    assert.equal(end.pos, "0,0,0");
    assert.match(end.status, /Game over at 0,0,0: the computer wins/);
  });

  await check("the link holds the formula, the selected cell, the slice and the level", async () => {
    await showTable("nim(heaps=3)", 6);
    await page.fill("#slice", "2");
    await showTable("nim(heaps=3)", 6);
    assert.match(await page.textContent("#table-info"), /the slice x2 = 2 is shown/);
    // The formula box knows the game's variables and the language's functions.
    assert.equal(await page.getAttribute("#formula", "placeholder"), "e.g. x0 xor x1 xor x2");
    assert.match(await page.textContent("#formula-help"), /Variables: x0, x1, x2[\s\S]*floor_phi/);
    await page.fill("#formula", "x0 xor x1");
    await page.dispatchEvent("#formula", "change");
    await clickCell(1, 3);
    await page.waitForFunction(() => document.getElementById("cell-info").textContent.startsWith("1,3,2"));
    // The hover line names the clicked cell in its slice, not (0,0,0).
    assert.equal((await page.textContent("#hover")).trim(), "(1,3,2)  G = 0");
    await page.selectOption("#play-level", "easy");
    const other = await context.newPage();
    await other.goto(page.url());
    await other.waitForSelector("body[data-ready='1']");
    await other.waitForFunction(() => document.getElementById("cell-info").textContent.startsWith("1,3,2: G = 0"));
    assert.equal(await other.inputValue("#formula"), "x0 xor x1");
    assert.equal(await other.inputValue("#slice"), "2");
    assert.equal(await other.inputValue("#play-level"), "easy");
    await other.close();
    await page.selectOption("#play-level", "perfect");
    await page.fill("#slice", "");
  });

  await check("keyboard: the board takes focus, arrows choose a move, Enter plays it", async () => {
    await showTable("nim(heaps=3)", 8);
    await page.fill("#play-pos", "1,2,4");
    await page.selectOption("#play-first", "human");
    await page.click("#play-start");
    await waitYourMove();
    await page.focus("#board");
    assert.equal(await page.evaluate(() => document.activeElement.id), "board");
    let said = "";
    for (let i = 0; i < 12 && !said.includes("move to 1,2,3"); i++) {
      await page.keyboard.press("ArrowRight");
      said = await page.textContent("#board-focus");
    }
    assert.match(said, /Enter: move to 1,2,3/);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => [...document.querySelectorAll("#play-log li")].some((l) => l.textContent.startsWith("you: 1,2,4 → 1,2,3")));
    assert.equal(await playToTheEnd(), "human");
  });

  await check("class mode: a challenge with nothing revealed; the mex revealed step by step", async () => {
    await showTable("wythoff", 16);
    await page.check("#class-mode");
    assert.equal(await page.getAttribute("#heatmap", "data-hidden"), "1");
    // Every cell one colour, no digits: P-positions (0,0), (1,2) look like N-positions.
    const colours = await page.evaluate(() => [[0, 0], [1, 2], [3, 5], [4, 6], [9, 9]].map(([x, y]) => window.nimlab.cellPixel(x, y).join(",")));
    assert.equal(new Set(colours).size, 1, `cells differ: ${colours}`);
    assert.equal(await page.textContent("#legend"), "");
    const [hx, hy] = await page.evaluate(() => window.nimlab.cellCenter(3, 5));
    await page.mouse.move(hx, hy);
    assert.equal((await page.textContent("#hover")).trim(), "(3,5)  G = ?");
    assert.match(page.url(), /class=1/);
    // The challenge: the table stays hidden through every round, answered or not.
    await page.selectOption("#ch-difficulty", "medium");
    await page.fill("#ch-seed", "11");
    await page.fill("#ch-count", "3");
    await page.click("#ch-deal");
    await page.waitForSelector("#ch-card:not([hidden]) #ch-answers button");
    const list = await page.evaluate(() => window.nimlab.challenge.list);
    for (let i = 0; i < list.length; i++) {
      await page.waitForFunction((k) => document.getElementById("ch-card").dataset.round === String(k) &&
        document.querySelector("#ch-answers button:not([disabled])"), i);
      assert.equal(await page.getAttribute("#heatmap", "data-hidden"), "1");
      const answers = await page.$$eval("#ch-answers button", (b) => b.map((x) => x.textContent + " " + x.className));
      assert.ok(answers.every((a) => !/G|win|correct/.test(a)), `answers give nothing away: ${answers}`);
      const c = list[i];
      const answer = c.question === "outcome" ? c.outcome : posText(c.winning_moves[0]);
      await page.click(`#ch-answers button[data-answer="${answer}"]`);
      await page.waitForFunction((k) => document.getElementById("ch-card").dataset.answered === String(k + 1), i);
      assert.equal(await page.getAttribute("#heatmap", "data-hidden"), "1");
      if (i + 1 < list.length) await page.click("#ch-next");
    }
    assert.equal(await page.textContent("#ch-score"), `Final score: ${list.length} of ${list.length}.`);
    assert.match(page.url(), new RegExp(`progress=${list.length}%3A${list.length}`));
    // A cell clicked in class mode: no value until the mex is revealed step by step.
    await clickCell(4, 6);
    await page.waitForSelector("#reveal-step");
    assert.match(await page.textContent("#cell-info"), /G = \?/);
    const options = await page.$$eval("#options li", (l) => l.map((x) => x.textContent + " " + x.className));
    assert.ok(options.every((o) => /G = \?/.test(o) && !/winning/.test(o)), options.join(" | "));
    await page.check("#presenter");
    for (let i = 0; i < 4; i++) await page.click("#reveal-step");
    assert.match(await page.textContent("#explain .mex-line"), /^G\(4,6\) = mex\{[0-9, ]+, …\} = \?$/);
    // The README's picture: the table hidden, the mex half revealed, in large type.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(root, "docs", "img", "class-mode.png"), clip: { x: 0, y: 0, width: 1280, height: 760 } });
    for (let i = 0; i < 40 && (await page.$("#reveal-step")); i++) await page.click("#reveal-step");
    assert.match(await page.textContent("#explain .mex-line"), /G\(4,6\) = mex\{0, 1, 2, 3, 4, 5, 6, 7, 8\} = 9/);
    await page.uncheck("#presenter");
    // Play in class mode: the moves are neither green nor red, and carry no value.
    await page.fill("#play-pos", "5,9");
    await page.click("#play-start");
    await waitYourMove();
    assert.doesNotMatch(await page.textContent("#play-status"), /G =|position\)/);
    const moves = await page.$$eval("#play-options button", (b) => b.map((x) => x.textContent + " " + x.className));
    assert.ok(moves.length > 0 && moves.every((m) => !/G=|win|lose/.test(m)), moves.join(" | "));
    // The link keeps class mode; the teacher reveals on demand.
    const other = await context.newPage();
    await other.goto(page.url());
    await other.waitForSelector("body[data-ready='1']");
    assert.equal(await other.getAttribute("#heatmap", "data-hidden"), "1");
    await other.close();
    await page.click("#reveal");
    assert.equal(await page.getAttribute("#heatmap", "data-hidden"), "");
    const shown = await page.evaluate(() => [[0, 0], [4, 6]].map(([x, y]) => window.nimlab.cellPixel(x, y).join(",")));
    assert.notEqual(shown[0], shown[1]);
    assert.ok((await page.$$("#play-options button.win")).length > 0, "revealed: the winning move is green");
    await page.uncheck("#class-mode");
  });

  await check("a one-heap game: digits, the strip wrapped by its period, the period stated", async () => {
    await showTable("subtraction(s={1,3,4})", 40);
    assert.match(await page.textContent("#table-info"), /period 7/);
    const v = await page.evaluate(() => ({ wrap: window.nimlab.view.wrap, labels: window.nimlab.view.labels.filter((l) => l.axis === "y").map((l) => l.value) }));
    assert.equal(v.wrap, 7);
    assert.deepEqual(v.labels, [0, 7, 14, 21, 28, 35]);
    // Cells large enough for digits (18 canvas pixels or more), heap 10 at row 1, column 3.
    const [x0] = await page.evaluate(() => window.nimlab.cellCenter(0, 0));
    const [x1] = await page.evaluate(() => window.nimlab.cellCenter(1, 0));
    assert.ok(x1 - x0 >= 18, `cells ${x1 - x0} px wide`);
    const [px, py] = await page.evaluate(() => window.nimlab.cellCenter(3, 1));
    await page.mouse.move(px, py);
    assert.equal((await page.textContent("#hover")).trim(), "(10)  G = 1");
    await clickCell(3, 1);
    await page.waitForFunction(() => document.getElementById("cell-info").textContent.startsWith("10: G = 1"));
  });

  await check("a grey non-position cell answers calmly", async () => {
    await showTable("chocolate-staircase(f=t/2)", 10);
    const cell = await page.evaluate(() => {
      const v = window.nimlab.view;
      for (let y = 0; y < 10; y++) for (let x = 0; x < 10; x++) if (v.table.values[y * 10 + x] === null) return [x, y];
      return null;
    });
    assert.ok(cell, "the staircase has non-positions");
    await clickCell(...cell);
    await page.waitForFunction(() => /is not a position/.test(document.getElementById("cell-info").textContent));
    assert.equal(await page.$("#cell-info .error"), null);
  });

  await check("worksheets for Wythoff 30 and a one-heap game typeset without an overfull box", async () => {
    const sheets = [];
    for (const [game, size, blank] of [["wythoff", 30, "random=20"], ["subtraction(s={1,3,4})", 21, "random=5"]]) {
      const r = await page.evaluate(async ([g, n, b]) => (await fetch("/api/worksheet", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ game: g, size: n, blank: b, seed: 1 }) })).json(), [game, size, blank]);
      assert.ok(r.latex && r.tikz, JSON.stringify(r).slice(0, 200));
      assert.match(r.latex, /Name: .*Date: /, "a line for the name and the date");
      if (game === "wythoff") assert.ok(r.latex.includes("Grundy values: Wythoff's game}") && r.latex.includes("The game."), "titled by the game's name, its rules stated");
      sheets.push([`${game.replace(/\W+/g, "")}-tabular`, r.latex], [`${game.replace(/\W+/g, "")}-tikz`, r.tikz]);
    }
    let pdflatex = true;
    try { execFileSync("which", ["pdflatex"], { stdio: "ignore" }); } catch { pdflatex = false; }
    if (!pdflatex) { console.log("  (no pdflatex: skipped)"); return; }
    const dir = mkdtempSync(path.join(tmpdir(), "nimlab-sheets-"));
    try {
      // The four runs side by side.
      const runs = sheets.map(([name, text]) => new Promise((resolve) => {
        writeFileSync(path.join(dir, `${name}.tex`), text);
        const p = spawn("pdflatex", ["-interaction=nonstopmode", "-halt-on-error", `${name}.tex`], { cwd: dir, stdio: "ignore" });
        p.on("exit", (code) => resolve([name, code]));
      }));
      for (const [name, code] of await Promise.all(runs)) {
        assert.equal(code, 0, `${name}: pdflatex failed`);
        const log = readFileSync(path.join(dir, `${name}.log`), "utf8");
        assert.ok(!log.includes("Overfull"), `${name}: an overfull box`);
      }
      console.log(`  (pdflatex typeset ${sheets.length} worksheets)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  await check("a challenge round: seeded, shareable, scored, mistakes explained", async () => {
    await showTable("wythoff", 16);
    await page.selectOption("#ch-difficulty", "easy");
    await page.fill("#ch-seed", "7");
    await page.fill("#ch-count", "4");
    await page.click("#ch-deal");
    await page.waitForSelector("#ch-card:not([hidden]) #ch-answers button");
    assert.match(page.url(), /challenge=easy%3A7%3A4/);
    const list = await page.evaluate(() => window.nimlab.challenge.list);
    assert.equal(list.length, 4);
    for (let i = 0; i < list.length; i++) {
      const c = list[i];
      await page.waitForFunction((k) => document.getElementById("ch-card").dataset.round === String(k) &&
        document.querySelector("#ch-answers button:not([disabled])"), i);
      // The first answer is wrong on purpose: the page explains the mistake.
      let answer;
      if (c.question === "outcome") answer = i === 0 ? (c.outcome === "P" ? "N" : "P") : c.outcome;
      else {
        const all = await page.$$eval("#ch-answers button", (b) => b.map((x) => x.dataset.answer));
        const wins = c.winning_moves.map((m) => m.join(","));
        answer = i === 0 ? all.find((a) => !wins.includes(a)) : wins[0];
      }
      await page.click(`#ch-answers button[data-answer="${answer}"]`);
      await page.waitForFunction((k) => document.getElementById("ch-card").dataset.answered === String(k + 1), i);
      if (i === 0) {
        assert.equal(await page.getAttribute("#ch-feedback", "class"), "wrong");
        assert.match(await page.textContent("#ch-feedback"), /Not quite[\s\S]*mex/);
        await page.screenshot({ path: path.join(root, "docs", "challenge.png"), clip: await sectionClip("#challenge") });
      } else assert.equal(await page.getAttribute("#ch-feedback", "class"), "right");
      if (i + 1 < list.length) await page.click("#ch-next");
    }
    assert.equal(await page.textContent("#ch-score"), "Final score: 3 of 4.");
    // The shared link deals the same positions.
    const other = await context.newPage();
    await other.goto(page.url());
    await other.waitForSelector("body[data-ready='1']");
    // The same positions, and the progress: the round is over, scored 3 of 4.
    await other.waitForFunction(() => document.getElementById("ch-score").textContent.startsWith("Final score"));
    assert.equal(await other.textContent("#ch-score"), "Final score: 3 of 4.");
    assert.deepEqual(await other.evaluate(() => window.nimlab.challenge.list), list);
    await other.close();
  });

  await check("a worksheet: SVG, LaTeX that compiles (or parses), the CLI's same tabular", async () => {
    await showTable("wythoff", 8);
    await page.fill("#ws-blank", "P;random=5");
    await page.fill("#ws-seed", "3");
    await page.click("#ws-make");
    await page.waitForSelector("#ws-preview svg");
    const ws = await page.evaluate(() => window.nimlab.worksheet);
    assert.equal(ws.blanked, 7 + 5); // the 7 P-positions of 8×8 (0,0 1,2 2,1 3,5 5,3 4,7 7,4) and 5 more
    assert.equal(await page.$$eval("#ws-links a[download]", (a) => a.length), 4);
    const cli = execFileSync(bin, ["table", "wythoff", "--size", "8", "--format", "latex", "--blank", "P;random=5", "--seed", "3", "--answers"], { encoding: "utf8" });
    const tabular = cli.slice(cli.indexOf("\\begin{tabular}"));
    assert.ok(ws.latex.includes(tabular), "the page's answers are the CLI's");
    assert.equal((ws.latex.match(/\\blank\b/g) || []).length - 1, ws.blanked); // one in the macro
    const dir = mkdtempSync(path.join(tmpdir(), "nimlab-tex-"));
    try {
      const has = (cmd) => { try { execFileSync("which", [cmd], { stdio: "ignore" }); return true; } catch { return false; } };
      if (has("pdflatex")) {
        const docs = [["tabular.tex", ws.latex]];
        let tikz = false;
        try { tikz = execFileSync("kpsewhich", ["tikz.sty"], { encoding: "utf8" }).trim() !== ""; } catch { /* no tikz */ }
        if (tikz) docs.push(["tikz.tex", ws.tikz]);
        for (const [file, text] of docs) {
          writeFileSync(path.join(dir, file), text);
          execFileSync("pdflatex", ["-interaction=nonstopmode", "-halt-on-error", file], { cwd: dir, stdio: "ignore", timeout: 20000 });
          assert.ok(existsSync(path.join(dir, file.replace(".tex", ".pdf"))), `${file} compiled`);
        }
        console.log(`  (pdflatex compiled ${docs.map((d) => d[0]).join(", ")})`);
      } else {
        for (const text of [ws.latex, ws.tikz]) {
          const opened = (text.match(/\\begin\{(\w+)\}/g) || []).map((b) => b.slice(7, -1));
          const closed = (text.match(/\\end\{(\w+)\}/g) || []).map((b) => b.slice(5, -1));
          assert.deepEqual(opened.slice().sort(), closed.slice().sort(), "environments balance");
          let depth = 0;
          for (const ch of text.replace(/\\[{}]/g, "")) { depth += ch === "{" ? 1 : ch === "}" ? -1 : 0; assert.ok(depth >= 0); }
          assert.equal(depth, 0, "braces balance");
        }
        console.log("  (no pdflatex: the LaTeX was parsed)");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await page.screenshot({ path: path.join(root, "docs", "worksheet.png"), clip: await sectionClip("#worksheet") });
    // The printed page (the print stylesheet: the worksheet alone), for the README.
    await page.setViewportSize({ width: 800, height: 1100 });
    await page.emulateMedia({ media: "print" });
    await page.screenshot({ path: path.join(root, "docs", "img", "worksheet-print.png"), fullPage: true });
    await page.emulateMedia({ media: "screen" });
    await page.setViewportSize({ width: 1280, height: 1150 });
  });

  await check("at 420 px wide nothing overflows", async () => {
    await page.setViewportSize({ width: 420, height: 900 });
    await showTable("wythoff", 16);
    const m = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, heat: document.getElementById("heatmap").getBoundingClientRect().right }));
    await page.setViewportSize({ width: 1280, height: 1150 });
    assert.ok(m.doc <= 420 && m.heat <= 420, JSON.stringify(m));
  });

  await check("screenshots for the README", async () => {
    await showTable("ryuoh(p=3)", 16);
    await clickCell(4, 7);
    await page.waitForSelector("#explain .chip.mex");
    await page.fill("#play-pos", "6,9");
    await page.selectOption("#play-first", "human");
    await page.click("#play-start");
    await waitYourMove();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(root, "docs", "screenshot.png"), fullPage: true });
    await page.screenshot({ path: path.join(root, "docs", "explain.png"), clip: await sectionClip("main") });
  });

  await check("no script error on the page", async () => {
    assert.deepEqual(pageErrors, []);
  });
} finally {
  await context.close();
  server.removeAllListeners("exit");
  server.kill();
  rmSync(userDataDir, { recursive: true, force: true });
}

console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
