// The variant workshop in a real browser: headless Chromium (the system's, driven by puppeteer-core)
// types a broken variant and finds its error marked at its line, completes a key from the schema,
// fixes the variant and sees its start position, tries a move on it, marks a script's error in its
// own tab, plays a move its runtime hooks give, runs a rule test, saves a link
// that reloads the variant, and plays it on the game page; screenshots go to SCREENSHOT_DIR.
//   node workshop_test.mjs PALACE_BINARY NODE_MODULES_DIR SCREENSHOT_DIR
// Exits 77 (ctest's skip) when there is no Chromium, 0 when every step passed, 1 otherwise.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServe } from './serve.mjs';

const [palace, modules, shots] = process.argv.slice(2).map((p) => p && resolve(p));
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.log(`SKIP: no Chromium at ${chromium} (install Debian's chromium, or set CHROMIUM)`);
  process.exit(77);
}
const puppeteer = createRequire(join(modules, 'noop.js'))('puppeteer-core');
mkdirSync(shots, { recursive: true });

const limit = setTimeout(() => fail('took over 100 seconds'), 100_000);
const scratch = mkdtempSync(join(tmpdir(), 'palace-workshop-'));
let server, browser, page;

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

async function startServer() {
  let address;
  ({ server, address } = await startServe(palace, join(scratch, 'games.db')));
  return address;
}

const text = (page, selector) => page.$eval(selector, (e) => e.textContent).catch(() => '');
async function waitFor(page, what, test) {
  try {
    await page.waitForFunction(test, { timeout: 15_000 });
  } catch {
    const targets = await page.$$eval('#preview square.move-dest', (s) => s.length).catch(() => '?');
    throw new Error(`waited in vain for ${what}; problem "${await text(page, '#problem')}", board "${await text(page, '#preview-status')}", ${targets} targets shown`);
  }
}

// Replaces the shown file's text as a paste would (typing would meet the editor's auto-indent).
async function replaceText(page, content) {
  await page.click('.cm-content');
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await page.keyboard.sendCharacter(content);
}

// The centre of a point of the preview board, rank 1 at the bottom, or at the top where the
// ranks count from there (`fromTop`: Janggi's `board.ranks_from: top`).
async function click(page, name, files, ranks, fromTop = false) {
  const box = await (await page.$('#preview cg-board')).boundingBox();
  const file = name.charCodeAt(0) - 97, rank = fromTop ? ranks + 1 - Number(name.slice(1)) : Number(name.slice(1));
  await page.mouse.click(box.x + ((file + 0.5) * box.width) / files, box.y + ((ranks - rank + 0.5) * box.height) / ranks);
}

const broken = 'import: [chess.yaml]\nname: knightmare\npieces:\n  knight:\n    moves:\n      - leap: [1, x]\n';
const fixed = broken.replace('[1, x]', '[1, 3]');
const test =
  'variant: variant.yaml\ncases:\n' +
  '  - name: a knight leaps one and three\n    moves_from: {point: b1, exactly: [a4, c4]}\n' +
  '  - name: a knight leaps as it did\n    moves_from: {point: b1, exactly: [a3, c3]}\n';

// A small board's preview (issue 57, item 10) as the game page draws it: only the variant's own
// pieces (no chess set left over), faces on shapes rather than letter discs, the first side at the
// bottom.
async function smallBoards(page, address) {
  for (const [variant, face] of [['minishogi', '玉'], ['minixiangqi', '帥'], ['dobutsu', null], ['janggi', '楚']]) {
    await page.select('#template', variant);
    const state = await (await fetch(`${address}api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ variant }) })).json();
    await waitFor(page, `${variant}'s ${state.pieces.length} pieces in the preview`,
      `document.getElementById('title').textContent === ${JSON.stringify(`my-${variant}`)} && document.querySelectorAll('#preview piece:not(.ghost)').length === ${state.pieces.length}`);
    const drawn = await page.evaluate(() => {
      const board = document.querySelector('#preview cg-board').getBoundingClientRect();
      return [...document.querySelectorAll('#preview piece:not(.ghost)')].map((e) => {
        const r = e.getBoundingClientRect();
        return { first: e.classList.contains('white'), lower: r.y + r.height / 2 > board.y + board.height / 2,
                 face: getComputedStyle(e, '::after').content.replace(/"/g, ''), disc: getComputedStyle(e, '::after').borderRadius };
      });
    });
    if (drawn.some((p) => p.first !== p.lower)) throw new Error(`${variant}'s preview does not put the first side at the bottom`);
    if (drawn.some((p) => p.disc === '50%')) throw new Error(`${variant}'s preview draws letter discs`);
    const faces = new Set(drawn.map((p) => p.face));
    if (face && !faces.has(face)) throw new Error(`${variant}'s preview draws ${[...faces].join(' ')}, not its face ${face}`);
  }
  await page.screenshot({ path: join(shots, 'workshop-small-board.png') });
  await holes(page, address);
  await page.select('#template', 'chess');
}

// A board with holes (Omega chess's 12x12 rectangle, of which the border but the corners is not on
// the board) previewed as the game page draws it: the holes unpainted, the points painted.
async function holes(page, address) {
  await page.select('#template', 'omega');
  const state = await (await fetch(`${address}api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ variant: 'omega' }) })).json();
  await waitFor(page, `omega's ${state.pieces.length} pieces in the preview`,
    `document.getElementById('title').textContent === 'my-omega' && document.querySelectorAll('#preview piece:not(.ghost)').length === ${state.pieces.length}`);
  // The alpha of the board's drawing at the centre of each point (file, rank from 0, rank 0 at the bottom).
  const painted = await page.evaluate(async (points) => {
    const board = document.querySelector('#preview cg-board');
    const r = board.getBoundingClientRect();
    const image = new Image();
    image.src = /url\("(.*)"\)/.exec(getComputedStyle(board).backgroundImage)[1];
    await image.decode();
    const canvas = Object.assign(document.createElement('canvas'), { width: Math.round(r.width), height: Math.round(r.height) });
    const ctx = canvas.getContext('2d');
    ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
    return points.map(([f, rank]) => ctx.getImageData(Math.round(((f + 0.5) * r.width) / 12), Math.round(((11.5 - rank) * r.height) / 12), 1, 1).data[3]);
  }, [[0, 1], [5, 0], [11, 10], [0, 0], [1, 1], [11, 11]]);
  if (painted.join(' ') !== '0 0 0 255 255 255') throw new Error(`omega's preview paints the holes a2 f1 l11 and the points a1 b2 l12 with alphas ${painted.join(' ')}`);
  await page.screenshot({ path: join(shots, 'workshop-holes.png') });
}

async function workshop(page, address) {
  await page.goto(`${address}workshop.html`, { waitUntil: 'networkidle0', timeout: 30_000 });
  await waitFor(page, 'the starter chess variant drawn', `document.querySelectorAll('#preview piece:not(.ghost)').length === 32`);
  await smallBoards(page, address);
  await waitFor(page, 'the chess starter again', `document.querySelectorAll('#preview piece:not(.ghost)').length === 32`);

  // A broken file: the error is marked at line 6, column 19, where the "x" stands.
  await replaceText(page, broken);
  await waitFor(page, 'the error', `document.getElementById('problem').textContent.startsWith('variant.yaml:6:19: ')`);
  await waitFor(page, 'the error marked in the editor', `document.querySelector('.cm-lintRange-error') !== null`);
  const marked = await page.evaluate(() => {
    const mark = document.querySelector('.cm-lintRange-error');
    const lines = [...document.querySelectorAll('.cm-content .cm-line')];
    return { line: lines.indexOf(mark.closest('.cm-line')) + 1, text: mark.textContent };
  });
  if (marked.line !== 6 || !marked.text.startsWith('x')) throw new Error(`the error is marked at ${JSON.stringify(marked)}, not line 6 at "x"`);
  if (!(await page.$eval('#play', (b) => b.disabled))) throw new Error('"Play it" is offered for a variant that does not load');
  await page.screenshot({ path: join(shots, 'workshop-error.png') });

  // A key completed from the schema the server learnt: "sid" offers "sides".
  await page.keyboard.sendCharacter('sid');
  await waitFor(page, 'the completion of "sid"', `[...document.querySelectorAll('.cm-tooltip-autocomplete li')].some((li) => li.textContent.startsWith('sides'))`);
  await page.keyboard.press('Escape');

  // Fixed: the start position is drawn, the knight's new targets marked, and a move tried.
  await replaceText(page, fixed);
  await waitFor(page, 'the fixed variant drawn', `document.getElementById('title').textContent === 'knightmare' && document.getElementById('problem').textContent === ''`);
  if ((await page.$$('#preview piece:not(.ghost)')).length !== 32) throw new Error('the start position is not 32 pieces');
  await click(page, 'b1', 8, 8);
  await waitFor(page, "the knight's two targets, a4 and c4", `document.querySelectorAll('#preview square.move-dest').length === 2`);
  await click(page, 'c4', 8, 8);
  await waitFor(page, 'the tried move', `document.getElementById('preview-status').textContent.startsWith('Tried b1c4')`);
  await page.screenshot({ path: join(shots, 'workshop-start.png') });

  // A script's error is marked in the script's own tab, which turns red.
  await page.type('#script-name', 'bad.lua');
  await page.click('#add-script');
  await replaceText(page, '-- broken\nfunction f(\n');
  await page.click('#tabs button[data-file="variant.yaml"]');
  await replaceText(page, `${fixed}scripts: {bad: bad.lua}\n`);
  await waitFor(page, 'the script error', `document.getElementById('problem').textContent.startsWith('bad.lua:3: ') && document.querySelector('#tabs button[data-file="bad.lua"]').classList.contains('has-error')`);
  if (await page.$('.cm-lint-marker-error')) throw new Error("the script's error is marked in variant.yaml");
  await page.click('#tabs button[data-file="bad.lua"]');
  await waitFor(page, 'the error marked in the script', `document.querySelector('.cm-lint-marker-error') !== null`);
  await page.click('#tabs button[data-file="variant.yaml"]');

  // A script named but not brought is marked at the line that names it.
  await replaceText(page, `${fixed}scripts: {gone: gone.lua}\n`);
  await waitFor(page, 'the missing script', `document.getElementById('problem').textContent === 'variant.yaml:7:11: scripts.gone: name one of the uploaded scripts'`);
  await waitFor(page, 'the missing script marked', `document.querySelector('.cm-lintRange-error') !== null`);
  const missing = await page.evaluate(() => {
    const lines = [...document.querySelectorAll('.cm-content .cm-line')];
    return lines.indexOf(document.querySelector('.cm-lintRange-error').closest('.cm-line')) + 1;
  });
  if (missing !== 7) throw new Error(`the missing script is marked at line ${missing}, not 7`);

  // Correct runtime hooks load and play: the soldier the script forbids to step right and lets
  // leap two ahead has those targets, and the draft may be saved, played and tested (issue 57).
  await page.type('#script-name', 'house.lua');
  await page.click('#add-script');
  await replaceText(page, "function soldier_move(m) return m.to ~= 'b7' end\n" +
                          "function soldier_extra(piece, point) if point == 'a7' then return {'a5'} end end\n");
  await page.click('#tabs button[data-file="variant.yaml"]');
  await replaceText(page, 'import: [janggi-kakao.yaml]\nname: house\nscripts: {house: house.lua}\n' +
                          'pieces: {soldier: {hooks: {allow_move: house.soldier_move, add_moves: house.soldier_extra}}}\n');
  await waitFor(page, 'the hooked draft loaded', `document.getElementById('title').textContent === 'house' && document.getElementById('problem').textContent === ''`);
  for (const id of ['save', 'play', 'run-test'])
    if (await page.$eval(`#${id}`, (b) => b.disabled)) throw new Error(`#${id} stays disabled for a draft whose hooks load`);
  await click(page, 'a7', 9, 10, true);
  await waitFor(page, "the hooked soldier's two targets", `document.querySelectorAll('#preview square.move-dest').length === 2`);
  await click(page, 'a5', 9, 10, true);
  await waitFor(page, 'the leap the hook added', `document.getElementById('preview-status').textContent.startsWith('Tried a7a5')`);
  await page.screenshot({ path: join(shots, 'workshop-hooks.png') });

  await replaceText(page, fixed);
  await waitFor(page, 'the variant loading again', `document.getElementById('problem').textContent === ''`);

  // A rule test: one case holds, one fails with its reason.
  await page.click('#tabs button[data-file="test.yaml"]');
  await replaceText(page, test);
  await page.click('#run-test');
  await waitFor(page, 'the test results', `document.getElementById('results-summary').textContent === '1 passed, 1 failed'`);
  const failure = await text(page, '#cases li.failed .failure');
  if (failure !== 'line 6: moves_from b1: missing a3 c3, unexpected a4 c4') throw new Error(`the failing case says "${failure}"`);
  await page.screenshot({ path: join(shots, 'workshop-test.png') });

  // Saved: the link reloads the variant.
  await page.click('#save');
  await waitFor(page, 'the link', `document.getElementById('share-link')?.href.includes('?variant=upload-')`);
  const link = await page.$eval('#share-link', (a) => a.href);
  await page.goto(link, { waitUntil: 'networkidle0', timeout: 30_000 });
  await waitFor(page, 'the saved variant reloaded', `document.getElementById('title').textContent === 'knightmare'`);
  if (!(await text(page, '.cm-content')).includes('leap: [1, 3]')) throw new Error('the link did not bring the YAML back');
  // The rule test is saved with it (issue 57, item 11).
  await page.click('#tabs button[data-file="test.yaml"]');
  await waitFor(page, 'the saved test.yaml', `document.querySelector('.cm-content').textContent.includes('a knight leaps as it did')`);
  await page.click('#tabs button[data-file="variant.yaml"]');
  await page.setViewport({ width: 390, height: 844 });
  await page.screenshot({ path: join(shots, 'workshop-phone.png'), fullPage: true });
  await page.setViewport({ width: 1200, height: 900 });

  // Played: a game on it opens on the game page.
  await Promise.all([page.waitForNavigation({ timeout: 15_000 }), page.click('#play')]);
  const game = new URL(page.url()).searchParams.get('game');
  const state = await (await fetch(`${address}api/games/${game}`)).json();
  if (state.name !== 'knightmare' || state.legal.b1?.join(' ') !== 'a4 c4') throw new Error(`"Play it" opened ${page.url()}: ${JSON.stringify(state).slice(0, 200)}`);
  // The game page names the upload in its Variant box, and New game starts another game of it.
  await waitFor(page, 'the game drawn', `document.querySelectorAll('#board piece:not(.ghost)').length === 32`);
  const chosen = await page.$eval('#variant', (s) => s.value);
  if (chosen !== state.variant) throw new Error(`the Variant box holds "${chosen}", not ${state.variant}`);
  const before = await page.evaluate(() => location.pathname + location.search);
  await page.click('#new-game');
  await waitFor(page, 'a new game of the upload', `location.pathname + location.search !== ${JSON.stringify(before)} && document.getElementById('message').textContent === ''`);
  const next = await (await fetch(`${address}api/games/${new URL(page.url()).pathname.split('/').pop()}`)).json();
  if (next.variant !== state.variant || next.id === game) throw new Error(`New game on the upload made ${JSON.stringify(next).slice(0, 200)}`);
}

try {
  const address = await startServer();
  browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 900 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await workshop(page, address);
  if (errors.length) throw new Error(`the page threw: ${errors.join('; ')}`);
  await cleanup();
  console.log(`workshop test passed; screenshots in ${shots}`);
  process.exit(0);
} catch (e) {
  await page?.screenshot({ path: join(shots, 'workshop-failure.png') }).catch(() => {});
  fail(e.message);
}
