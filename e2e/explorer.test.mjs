// End-to-end test of the nimlab web explorer in real headless Chromium (Debian's
// /usr/bin/chromium driven by playwright-core). Starts `nimlab serve --port 0`, opens
// the page, renders a table, clicks a cell, checks the highlighted winning moves and
// the formula check, plays games to the end, and saves docs/screenshot.png.
//
//   node e2e/explorer.test.mjs            (NIMLAB_BIN overrides the binary)

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
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
page.setDefaultTimeout(15000);

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

async function clickCell(x, y) {
  const [px, py] = await page.evaluate(([a, b]) => window.nimlab.cellCenter(a, b), [x, y]);
  await page.mouse.click(px, py);
}

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

try {
  await page.goto(url);
  await page.waitForSelector("body[data-ready='1']");

  await check("the page renders the default table (wythoff, 16 × 16)", async () => {
    await page.waitForSelector("#heatmap[data-cells='256']");
    assert.match(await page.textContent("#table-info"), /^wythoff: box 16×16/);
    const family = await page.$$eval("#family option", (o) => o.map((x) => x.value));
    assert.ok(family.includes("ryuoh") && family.includes("nim"), "the catalog is listed");
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
    await page.click("#check");
    await page.waitForSelector("#check-result.good");
    assert.match(await page.textContent("#check-result"), /holds on all 256 positions/);
    await clickCell(3, 5);
    await page.waitForFunction(() => document.getElementById("nimsum").textContent.includes("110"));
    assert.match(await page.textContent("#nimsum"), /011[\s\S]*101[\s\S]*110/);
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

  await check("screenshot for the README", async () => {
    await showTable("wythoff", 24);
    await clickCell(7, 9);
    await page.waitForSelector("#options li.winning");
    await page.fill("#spec", "ryuoh(p=3)");
    await page.fill("#play-pos", "6,9");
    await page.selectOption("#play-first", "human");
    await page.click("#play-start");
    await waitYourMove();
    await page.fill("#spec", "wythoff");
    await page.screenshot({ path: path.join(root, "docs", "screenshot.png"), fullPage: true });
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
