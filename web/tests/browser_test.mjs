// The board page in a real browser: headless Chromium (the system's, driven by puppeteer-core)
// plays a Janggi game by clicking (a formation chosen, a horse move, a refused elephant move whose
// reason appears, a pass) and a chess game to checkmate, saving screenshots on the way.
//   node browser_test.mjs PALACE_BINARY NODE_MODULES_DIR SCREENSHOT_DIR
// Exits 77 (ctest's skip) when there is no Chromium, 0 when every step passed, 1 otherwise.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [palace, modules, shots] = process.argv.slice(2).map((p) => p && resolve(p));
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.log(`SKIP: no Chromium at ${chromium} (install Debian's chromium, or set CHROMIUM)`);
  process.exit(77);
}
const puppeteer = createRequire(join(modules, 'noop.js'))('puppeteer-core');
mkdirSync(shots, { recursive: true });

// The whole test is bounded: whatever hangs, it fails within the limit.
const limit = setTimeout(() => fail('took over 100 seconds'), 100_000);
const scratch = mkdtempSync(join(tmpdir(), 'palace-browser-'));
let server, browser;

function fail(message) {
  console.error(`FAIL: ${message}`);
  cleanup().finally(() => process.exit(1));
}
async function cleanup() {
  clearTimeout(limit);
  await browser?.close().catch(() => {});
  server?.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
}

function startServer() {
  return new Promise((ok, ko) => {
    server = spawn(palace, ['serve', '--port', '0', '--db', join(scratch, 'games.db')], { stdio: ['ignore', 'pipe', 'inherit'] });
    server.on('error', ko);
    server.stdout.on('data', (chunk) => {
      const found = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(String(chunk));
      if (found) ok(found[0]);
    });
  });
}

// The centre of a point of the board, with rank 1 at the bottom as the page first shows it.
async function point(page, name) {
  const box = await (await page.$('#board cg-board')).boundingBox();
  const { files, ranks } = await page.evaluate(() => ({
    files: Number(getComputedStyle(document.getElementById('board')).getPropertyValue('--files')),
    ranks: Number(getComputedStyle(document.getElementById('board')).getPropertyValue('--ranks')),
  }));
  const file = name.charCodeAt(0) - 97, rank = Number(name.slice(1));
  return { x: box.x + ((file + 0.5) * box.width) / files, y: box.y + ((ranks - rank + 0.5) * box.height) / ranks };
}
async function click(page, name) {
  const { x, y } = await point(page, name);
  await page.mouse.click(x, y);
}
async function drag(page, from, to) {
  await click(page, from);
  await click(page, to);
}
const text = (page, selector) => page.$eval(selector, (e) => e.textContent);
async function waitFor(page, what, test) {
  try {
    await page.waitForFunction(test, { timeout: 15_000 });
  } catch {
    throw new Error(`waited in vain for ${what}; status "${await text(page, '#status')}", message "${await text(page, '#message')}"`);
  }
}
const moveCount = (n) => `document.querySelectorAll('#move-list li').length === ${n}`;

async function newGame(page, variant, formations = {}) {
  await page.select('#variant', variant);
  for (const [side, name] of Object.entries(formations)) await page.select(`#formation-${side}`, name);
  const before = await page.evaluate(() => location.hash);
  await page.click('#new-game');
  await waitFor(page, `a new ${variant} game`, `location.hash !== ${JSON.stringify(before)} && ${moveCount(0)}`);
}

async function janggi(page, address) {
  await newGame(page, 'janggi-modern', { cho: 'right-elephant' });
  const id = await page.evaluate(() => location.hash.slice(1));
  const state = await (await fetch(`${address}api/games/${id}`)).json();
  if (state.formations.cho !== 'right-elephant') throw new Error(`formation not chosen: ${JSON.stringify(state.formations)}`);
  const kindAt = (s) => state.pieces.find((p) => p.square === s)?.kind;
  if (kindAt('g10') !== 'horse' || kindAt('h10') !== 'elephant') throw new Error('right-elephant formation not on the board');

  await drag(page, 'b10', 'c8');  // Cho's horse
  await waitFor(page, 'the horse move in the list', `${moveCount(1)} && document.querySelector('#move-list li').textContent === 'b10c8'`);
  await drag(page, 'c1', 'a4');  // Han's elephant, blocked by its own cannon
  await waitFor(page, 'the refusal', `document.getElementById('message').textContent === 'elephant on c1 is blocked at b3'`);
  if ((await page.$$('#move-list li')).length !== 1) throw new Error('a refused move reached the move list');
  await page.screenshot({ path: join(shots, 'janggi-refused.png') });
  await page.click('#pass');
  await waitFor(page, 'the pass', `${moveCount(2)} && document.querySelectorAll('#move-list li')[1].textContent === 'pass'`);
  const status = await text(page, '#status');
  if (status !== 'Cho to move.') throw new Error(`after Han's pass the status reads "${status}"`);
  await page.screenshot({ path: join(shots, 'janggi.png') });
}

async function chess(page) {
  await newGame(page, 'chess');
  const moves = [['f2', 'f3'], ['e7', 'e5'], ['g2', 'g4'], ['d8', 'h4']];
  for (const [i, [from, to]] of moves.entries()) {
    await drag(page, from, to);
    await waitFor(page, `move ${from}${to}`, moveCount(i + 1));
  }
  await waitFor(page, 'checkmate', `document.getElementById('status').textContent === 'Game over: black wins: checkmate.'`);
  await page.screenshot({ path: join(shots, 'chess-checkmate.png') });
}

try {
  const address = await startServer();
  browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 800 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(address, { waitUntil: 'networkidle0', timeout: 30_000 });
  await page.waitForSelector('#board piece', { timeout: 15_000 });
  await janggi(page, address);
  await chess(page);
  if (errors.length) throw new Error(`the page threw: ${errors.join('; ')}`);
  await cleanup();
  console.log(`browser test passed; screenshots in ${shots}`);
  process.exit(0);
} catch (e) {
  fail(e.message);
}
