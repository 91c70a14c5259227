// The board page in a real browser: headless Chromium (the system's, driven by puppeteer-core)
// draws every shipped variant (its pieces counted, both sides' told apart by colour), plays a
// Janggi game by clicking (a formation chosen, a horse move, a refused elephant move whose reason
// appears, a pass) and a chess game to checkmate, tells a Xiangqi chase that must vary, drops
// pieces from the hand by clicks in shogi and crazyhouse, promotes and declines to by the picker,
// checks that every face of every variant is drawn as a glyph, not a box, that a game's link
// restores it and that a second tab follows, that Xiangqi's edges are numbered as its players do
// and that Omega chess's holes are no points, and saves screenshots at 1200x900 and at a phone's
// 390x844.
//   node browser_test.mjs PALACE_BINARY NODE_MODULES_DIR SCREENSHOT_DIR
// STEPS=everyVariant,promotion runs only the steps named.
// Exits 77 (ctest's skip) when there is no Chromium, 0 when every step passed, 1 otherwise.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServe } from './serve.mjs';

const [palace, modules, shots] = process.argv.slice(2).map((p) => p && resolve(p));
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.log(`SKIP: no Chromium at ${chromium} (install Debian's chromium, or set CHROMIUM)`);
  process.exit(77);
}
const puppeteer = createRequire(join(modules, 'noop.js'))('puppeteer-core');
mkdirSync(shots, { recursive: true });

// The whole test is bounded: whatever hangs, it fails within the limit.
const limit = setTimeout(() => fail('took over 110 seconds'), 110_000);
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

async function startServer() {
  let address;
  ({ server, address } = await startServe(palace, join(scratch, 'games.db')));
  return address;
}

// The centre of a point of the board, as the page shows it (turned round or not).
async function point(page, name) {
  const box = await (await page.$('#board cg-board')).boundingBox();
  const { files, ranks, black, fromTop } = await page.evaluate(() => ({
    files: Number(getComputedStyle(document.getElementById('board')).getPropertyValue('--files')),
    ranks: Number(getComputedStyle(document.getElementById('board')).getPropertyValue('--ranks')),
    black: document.getElementById('board').classList.contains('orientation-black'),
    fromTop: document.getElementById('board').dataset.ranksFrom === 'top',
  }));
  let file = name.charCodeAt(0) - 97, rank = Number(name.slice(1));
  if (fromTop) rank = ranks + 1 - rank;  // Janggi: rank 1 is drawn at the top
  if (black) [file, rank] = [files - 1 - file, ranks + 1 - rank];
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
// A click where an element is, whatever the page redraws meanwhile.
async function press(page, selector) {
  await page.waitForSelector(selector, { timeout: 10_000 });
  const { x, y } = await page.$eval(selector, (e) => {
    const r = e.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  });
  await page.mouse.click(x, y);
}
// A move typed in the box under the board, in any notation the game reads.
async function type(page, move, count) {
  await page.$eval('#move-input', (e) => (e.value = ''));
  await page.type('#move-input', move);
  await page.keyboard.press('Enter');
  await waitFor(page, `the typed move ${move}`, moveCount(count));
}
const settle = () => new Promise((done) => setTimeout(done, 400));  // animations end before a screenshot
const text = (page, selector) => page.$eval(selector, (e) => e.textContent);
async function waitFor(page, what, test) {
  try {
    await page.waitForFunction(test, { timeout: 15_000 });
  } catch {
    const moves = await page.evaluate(() => [...document.querySelectorAll('#move-list button.move')].map((b) => b.textContent).join(' '));
    throw new Error(`waited in vain for ${what}; moves "${moves}", status "${await text(page, '#status')}", message "${await text(page, '#message')}"`);
  }
}
const moveCount = (n) => `document.querySelectorAll('#move-list button.move').length === ${n}`;
const gameId = (page) => page.evaluate(() => location.pathname.split('/').pop());

async function newGame(page, variant, formations = {}) {
  await page.select('#variant', variant);
  for (const [side, name] of Object.entries(formations)) await page.select(`#formation-${side}`, name);
  const before = await page.evaluate(() => location.pathname);
  await page.click('#new-game');
  await waitFor(page, `a new ${variant} game`, `location.pathname !== ${JSON.stringify(before)} && ${moveCount(0)}`);
}

async function janggi(page, address) {
  await newGame(page, 'janggi-modern', { cho: 'right-elephant' });
  const id = await gameId(page);
  const state = await (await fetch(`${address}api/games/${id}`)).json();
  if (state.formations.cho !== 'right-elephant') throw new Error(`formation not chosen: ${JSON.stringify(state.formations)}`);
  const kindAt = (s) => state.pieces.find((p) => p.square === s)?.kind;
  if (kindAt('g10') !== 'horse' || kindAt('h10') !== 'elephant') throw new Error('right-elephant formation not on the board');

  await drag(page, 'b10', 'c8');  // Cho's horse
  await waitFor(page, 'the horse move in the list', `${moveCount(1)} && document.querySelector('#move-list button.move').textContent === '02馬83'`);
  await drag(page, 'c1', 'a4');  // Han's elephant, blocked by its own cannon
  await waitFor(page, 'the refusal', `document.getElementById('message').textContent === 'elephant on c1 is blocked at b3'`);
  if ((await page.$$('#move-list button.move')).length !== 1) throw new Error('a refused move reached the move list');
  await page.screenshot({ path: join(shots, 'janggi-refused.png') });
  // Cho could end the game by passing back: the first press only says so.
  await page.click('#pass');
  const warning = 'Careful: after a pass, Cho may pass too and end the game (han wins: both sides passed, 73.5 to 72 points). Press Pass again to pass.';
  await waitFor(page, 'the warning before the pass', `document.getElementById('pass-note').textContent === ${JSON.stringify(warning)}`);
  if ((await page.$$('#move-list button.move')).length !== 1) throw new Error('the warned pass was made at once');
  await page.screenshot({ path: join(shots, 'janggi-pass-warning.png') });
  await page.click('#pass');
  await waitFor(page, 'the pass', `${moveCount(2)} && document.querySelectorAll('#move-list button.move')[1].textContent === 'pass'`);
  const status = await text(page, '#status');
  if (status !== 'Cho to move.') throw new Error(`after Han's pass the status reads "${status}"`);
  await page.screenshot({ path: join(shots, 'janggi-pass.png') });
}

// The screen column (0: the left) and row (0: the top) of an element on the board.
async function cell(page, selector) {
  return page.evaluate((selector) => {
    const board = document.querySelector('#board cg-board').getBoundingClientRect();
    const files = Number(getComputedStyle(document.getElementById('board')).getPropertyValue('--files'));
    const ranks = Number(getComputedStyle(document.getElementById('board')).getPropertyValue('--ranks'));
    return [...document.querySelectorAll(selector)].map((e) => {
      const r = e.getBoundingClientRect();
      return [Math.floor(((r.x + r.width / 2 - board.x) * files) / board.width), Math.floor(((r.y + r.height / 2 - board.y) * ranks) / board.height)];
    });
  }, selector);
}

// The Janggi board as its notation counts it: files from Cho's left, Cho at the bottom. In
// janggi-kakao with Cho's left-elephant formation, Kakao's usual first move 79卒78 takes the soldier
// on Cho's right edge one point left; the elephants stand second from each edge's left.
async function janggiAsNotated(page, address) {
  await newGame(page, 'janggi-kakao', { cho: 'left-elephant' });
  const { kinds } = await call(address, 'GET', `/api/games/${await gameId(page)}`);
  const role = `${String.fromCharCode(97 + kinds.findIndex((k) => k.name === 'elephant'))}-piece`;
  const elephants = (await cell(page, `#board cg-board piece.white.${role}`)).map(String).sort().join(' ');
  if (elephants !== '1,9 6,9') throw new Error(`Cho's left-elephant formation has its elephants on the screen cells ${elephants}, not 1,9 and 6,9`);
  await type(page, '79卒78', 1);
  await settle();
  await page.screenshot({ path: join(shots, 'janggi-kakao-79-78.png') });
  const moved = (await cell(page, '#board cg-board square.last-move')).map(String).sort().join(' ');
  if (moved !== '7,6 8,6') throw new Error(`79卒78 moved between the screen cells ${moved}, not from the right edge's 8,6 to 7,6`);
  const soldier = await page.evaluate(() => document.querySelector('#move-list button.move').textContent);
  if (soldier !== '79卒78') throw new Error(`the move list writes ${soldier}`);
}

// The kind and side of the piece drawn at a screen cell (column and row from the top left), or "".
async function drawnAt(page, address, column, row) {
  const { kinds } = await call(address, 'GET', `/api/games/${await gameId(page)}`);
  return page.evaluate((column, row, kinds) => {
    const board = document.querySelector('#board cg-board').getBoundingClientRect();
    const files = Number(getComputedStyle(document.getElementById('board')).getPropertyValue('--files'));
    const ranks = Number(getComputedStyle(document.getElementById('board')).getPropertyValue('--ranks'));
    for (const e of document.querySelectorAll('#board cg-board piece:not(.ghost):not(.fading)')) {
      const r = e.getBoundingClientRect();
      const at = [Math.floor(((r.x + r.width / 2 - board.x) * files) / board.width), Math.floor(((r.y + r.height / 2 - board.y) * ranks) / board.height)];
      if (at[0] !== column || at[1] !== row) continue;
      const role = [...e.classList].find((c) => c.endsWith('-piece'));
      const kind = kinds[role.charCodeAt(0) - 97]?.name;
      return `${e.classList.contains('white') ? 'first' : 'second'} ${kind}`;
    }
    return '';
  }, column, row, kinds);
}
const movesListed = (page) => page.evaluate(() => [...document.querySelectorAll('#move-list button.move')].map((b) => b.textContent).join(' '));
async function expectDrawn(page, address, column, row, piece, after) {
  await settle();  // the move's animation ends
  const drawn = await drawnAt(page, address, column, row);
  if (drawn !== piece) throw new Error(`after ${after} the screen cell ${column},${row} shows "${drawn}", not the ${piece}`);
}

// Each game's moves typed and listed as its players write them (issue 57, item 6): shogi in
// Japanese (KIF) and Western notation, "+" promoting, on a board numbered 9-1 and 一-九; Xiangqi in
// Chinese, on a board whose sides number the files each from its own right (issue 57: "Xiangqi's
// edges still read a–i"); the switch to coordinates, remembered across a reload, and back.
async function notation(page, address) {
  await newGame(page, 'shogi');
  // Files 9 to 1 from the left along the top, ranks 一 to 九 from the top down the right.
  const edges = `${await text(page, '#file-labels')} ${await text(page, '#rank-labels')}`;
  if (edges !== '987654321 一二三四五六七八九') throw new Error(`the shogi board's edges read "${edges}"`);
  await type(page, '７六歩', 1);   // KIF, as a Japanese player types it: the pawn of 7g to 7f
  await expectDrawn(page, address, 2, 5, 'first pawn', '７六歩');
  await expectDrawn(page, address, 2, 6, '', '７六歩');
  await type(page, 'P-3d', 2);   // Western notation: gote's pawn of 3c to 3d
  await expectDrawn(page, address, 6, 3, 'second pawn', 'P-3d');
  await type(page, 'Bx2b+', 3);  // the bishop takes on 2b and promotes: "+" is a promotion here
  await expectDrawn(page, address, 7, 1, 'first horse', 'Bx2b+');
  await type(page, '同銀', 4);   // gote's silver of 3a takes back
  await expectDrawn(page, address, 7, 1, 'second silver', '同銀');
  const listed = await movesListed(page);
  if (listed !== '☗７六歩(77) ☖３四歩(33) ☗２二角成(88) ☖同　銀(31)') throw new Error(`the shogi moves are listed as "${listed}"`);
  await settle();
  await page.screenshot({ path: join(shots, 'shogi-notation.png') });

  // Coordinates instead, remembered by this browser across a reload, and back.
  await page.click('#coordinates');
  await waitFor(page, 'the moves in coordinates', `document.querySelector('#move-list button.move').textContent === 'c3c4'`);
  if (await text(page, '#rank-labels')) throw new Error('the Japanese rank numbers stay in coordinates');
  await page.reload({ waitUntil: 'domcontentloaded' });
  await waitFor(page, 'the coordinates after a reload', `${moveCount(4)} && document.querySelector('#move-list button.move').textContent === 'c3c4'`);
  await page.click('#coordinates');
  await waitFor(page, 'the Japanese moves again', `document.querySelector('#move-list button.move').textContent === '☗７六歩(77)'`);

  await newGame(page, 'xiangqi');
  await type(page, '炮二平五', 1);  // red's cannon of the second file from red's right to the centre
  await expectDrawn(page, address, 4, 7, 'first cannon', '炮二平五');
  await expectDrawn(page, address, 7, 7, '', '炮二平五');
  await type(page, '马8进7', 2);    // black's horse, in simplified script and ASCII digits
  await expectDrawn(page, address, 6, 2, 'second horse', '马8进7');
  const xiangqi = await movesListed(page);
  if (xiangqi !== '炮二平五 馬８進７') throw new Error(`the xiangqi moves are listed as "${xiangqi}"`);
  // Each side's files numbered from its own right along its own edge, as Xiangqi boards are
  // printed: Red's 九 to 一 along the bottom, Black's １ to ９ along the top; no rank numbers.
  await xiangqiEdges(page, '１２３４５６７８９', '九八七六五四三二一');
  await settle();
  await page.screenshot({ path: join(shots, 'xiangqi-notation.png') });
  await page.click('#flip');
  await xiangqiEdges(page, '一二三四五六七八九', '９８７６５４３２１');
  await page.click('#flip');
  await page.click('#coordinates');
  await xiangqiEdges(page, '', '');
  await page.click('#coordinates');
  await xiangqiEdges(page, '１２３４５６７８９', '九八七六五四三二一');
  // Minixiangqi's players write WXF: digits for both sides, from each one's right.
  await newGame(page, 'minixiangqi');
  await xiangqiEdges(page, '1234567', '7654321');
}
async function xiangqiEdges(page, top, bottom) {
  await waitFor(page, `the edges ${top} and ${bottom}`, `document.getElementById('file-labels').textContent === ${JSON.stringify(top)} && document.getElementById('side-labels').textContent === ${JSON.stringify(bottom)}`);
  if (await text(page, '#rank-labels')) throw new Error(`a xiangqi board's ranks are numbered "${await text(page, '#rank-labels')}"`);
}

// A piece carried by the mouse, pressed on one point and let go on another (drag() clicks).
async function carry(page, from, to) {
  const [a, b] = [await point(page, from), await point(page, to)];
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 6 });
  await page.mouse.move(b.x, b.y, { steps: 6 });
  await page.mouse.up();
}
// The alpha of the board's drawing (its SVG background) at the centre of a point: 0 where nothing
// is painted, so the page shows through.
async function paintedAt(page, name) {
  const { x, y } = await point(page, name);
  return page.evaluate(async (x, y) => {
    const board = document.querySelector('#board cg-board');
    const r = board.getBoundingClientRect();
    const image = new Image();
    image.src = /url\("(.*)"\)/.exec(getComputedStyle(board).backgroundImage)[1];
    await image.decode();
    const canvas = Object.assign(document.createElement('canvas'), { width: Math.round(r.width), height: Math.round(r.height) });
    const ctx = canvas.getContext('2d');
    ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
    return ctx.getImageData(Math.round(x - r.x), Math.round(y - r.y), 1, 1).data[3];
  }, x, y);
}
async function selected(page) {
  await settle();  // chessgroundx draws a selection at the next frame
  return page.evaluate(() => document.querySelectorAll('#board cg-board square.selected').length);
}

// Omega chess: a 12x12 rectangle whose border but the four corners (the wizards' points) are
// holes. A hole is not drawn (the page shows through), carries no letter, takes no click (nothing
// is selected, a selected piece is let go and not moved there) and no piece dragged onto it (it
// goes back); no destination dot falls on one; the wizards on the corners move by clicks and by
// drag; the position editor's FEN writes them '*'. Screenshots at a desk's and a phone's size.
async function omega(page, address) {
  await newGame(page, 'omega');
  const state = await call(address, 'GET', `/api/games/${await gameId(page)}`);
  if (state.board.holes.length !== 40) throw new Error(`omega has ${state.board.holes.length} holes, not 40`);
  for (const hole of ['a2', 'b1', 'l11', 'f12']) if (await paintedAt(page, hole)) throw new Error(`the hole ${hole} is painted`);
  for (const there of ['a1', 'b2', 'l12', 'f6']) if ((await paintedAt(page, there)) !== 255) throw new Error(`the point ${there} is not painted`);
  await click(page, 'c1');
  if (await selected(page)) throw new Error('a click on the hole c1 selected it');
  // The wizard of a1 selected: its two moves dotted (b4 and d2 are its leaps, d2 holds a piece of
  // its own), none on a hole; a click on a hole lets it go and moves nothing.
  await click(page, 'a1');
  if ((await selected(page)) !== 1) throw new Error('a click on the wizard of a1 selected nothing');
  const dots = (await cell(page, '#board cg-board square.move-dest')).map(String).sort().join(' ');
  if (dots !== '1,8') throw new Error(`the wizard of a1 shows destinations at the screen cells ${dots}, not b4's 1,8`);
  await click(page, 'a4');
  await settle();
  if (await selected(page)) throw new Error('a click on the hole a4 kept the wizard selected');
  if (await text(page, '#message')) throw new Error(`a click on a hole sent a move: "${await text(page, '#message')}"`);
  await expectDrawn(page, address, 0, 11, 'first wizard', 'a click on the hole a4');
  // Dragged onto a hole (a4), the wizard goes back to a1, and no move is sent.
  await carry(page, 'a1', 'a4');
  await settle();
  await expectDrawn(page, address, 0, 11, 'first wizard', 'a drag onto the hole a4');
  if (await drawnAt(page, address, 0, 8)) throw new Error('a piece is drawn on the hole a4');
  if ((await movesListed(page)) !== '' || (await text(page, '#message'))) throw new Error(`a drag onto a hole sent a move: "${await text(page, '#message')}"`);
  // Moves by clicks and by drag.
  await click(page, 'a1');
  await click(page, 'b4');
  await waitFor(page, 'Wb4 by clicks', moveCount(1));
  await expectDrawn(page, address, 1, 8, 'first wizard', 'Wb4');
  await carry(page, 'l12', 'k9');
  await waitFor(page, 'Wk9 by drag', moveCount(2));
  await expectDrawn(page, address, 10, 3, 'second wizard', 'Wk9');
  await click(page, 'f3');
  await click(page, 'f6');
  await waitFor(page, 'f6 by clicks', moveCount(3));
  await carry(page, 'a12', 'b9');
  await waitFor(page, 'Wb9 by drag', moveCount(4));
  const listed = await movesListed(page);
  if (listed !== 'Wb4 Wk9 f6 Wb9') throw new Error(`the omega moves are listed as "${listed}"`);
  // The position editor writes the holes as the server's FEN does, '*'.
  const { fen } = await call(address, 'GET', `/api/games/${await gameId(page)}`);
  await page.click('#edit');
  const edited = await page.$eval('#fen', (e) => e.value);
  if (edited.split(' ')[0] !== fen.split(' ')[0]) throw new Error(`the editor writes omega's board ${edited}, not ${fen}`);
  await page.click('#edit');
  // Turned round, the holes are where the points' names say.
  await page.click('#flip');
  await settle();
  for (const hole of ['a2', 'k1']) if (await paintedAt(page, hole)) throw new Error(`the hole ${hole} is painted with the board turned round`);
  if ((await paintedAt(page, 'a1')) !== 255) throw new Error('the point a1 is not painted with the board turned round');
  await page.screenshot({ path: join(shots, 'omega-flipped.png') });
  await page.click('#flip');
  await click(page, 'c1');
  await settle();
  await page.screenshot({ path: join(shots, 'omega-1200.png') });
  await page.setViewport({ width: 390, height: 844 });
  await waitFor(page, 'omega sized for a phone', fitsAPhone);
  await settle();
  if (await paintedAt(page, 'a2')) throw new Error('the hole a2 is painted on a phone');
  await page.screenshot({ path: join(shots, 'omega-390.png') });
  await page.setViewport({ width: 1200, height: 900 });
}

// A move typed on the other side's turn is refused for that.
async function wrongTurn(page) {
  await newGame(page, 'chess');
  await page.$eval('#move-input', (e) => (e.value = ''));
  await page.type('#move-input', 'e5');
  await page.keyboard.press('Enter');
  const refusal = 'it is White\'s turn: "e5" is a move of Black';
  await waitFor(page, 'the refusal of a move of Black', `document.getElementById('message').textContent === ${JSON.stringify(refusal)}`);
}

// The clock the server keeps, by its own sides: on a 2-second clock after 1. e4 e5, White's
// (below) runs out; the server decides the loss, which a reload still shows. A byo-yomi clock
// shows its main time and periods.
async function clocks(browser, address) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 900 });
  const state = await call(address, 'POST', '/api/games', { variant: 'chess', clock: { initial: 2 } });
  await open(page, address, state);
  await type(page, 'e4', 1);
  await type(page, 'e5', 2);
  await waitFor(page, "White's clock running below the board", `document.getElementById('clock-bottom').classList.contains('running') && !document.getElementById('clock-top').classList.contains('running')`);
  const lost = "Black wins: white's time ran out.";
  await waitFor(page, 'the time loss', `document.getElementById('banner').textContent === ${JSON.stringify(lost)}`);
  const bottom = await text(page, '#clock-bottom');
  if (bottom !== '0:00') throw new Error(`after White's time ran out White's clock reads ${bottom}`);
  const server = await call(address, 'GET', `/api/games/${state.id}`);
  if (server.result.text !== "black wins: white's time ran out" || server.clock.left_ms[0] !== 0) throw new Error(`the server says ${JSON.stringify(server.result)}`);
  await settle();
  await page.screenshot({ path: join(shots, 'chess-time-loss.png') });
  await page.reload({ waitUntil: 'networkidle0' });
  await waitFor(page, 'the time loss after a reload', `document.getElementById('banner').textContent === ${JSON.stringify(lost)}`);
  // Byo-yomi as shogi and janggi play it: main time, then three periods of 30 s.
  const byoyomi = await call(address, 'POST', '/api/games', { variant: 'shogi', clock: { initial: 1, byoyomi: 30, periods: 3 } });
  await open(page, address, byoyomi);
  const faces = await page.evaluate(() => ['clock-top', 'clock-bottom'].map((id) => document.getElementById(id).textContent).join(' '));
  if (faces !== '0:01 +3×30s 0:01 +3×30s') throw new Error(`a byo-yomi clock reads ${faces}`);
  await page.close();
}

// Seats: the creator's page offers each side's link and the spectators'; White's and Black's pages,
// each turned to its own side, play a move each way; the spectator follows and cannot move; a
// draw offered is declined, then a resignation ends the game on every page.
async function seats(browser, address) {
  const creator = await browser.newPage();
  await creator.setViewport({ width: 1200, height: 900 });
  const state = await call(address, 'POST', '/api/games', { variant: 'chess' });
  await open(creator, address, state);
  if ((await text(creator, '#seat-role')) !== 'You play both sides.') throw new Error(`the creator reads "${await text(creator, '#seat-role')}"`);
  const link = (whose) => creator.$eval(`#seat-links input[data-link="${whose}"]`, (e) => e.value);
  const [white, black, spectator] = [await link('white'), await link('black'), await link('spectator')];
  if (!white.endsWith(`/game/${state.seats.white}`) || !black.endsWith(`/game/${state.seats.black}`)) throw new Error(`the seat links are ${white} and ${black}`);
  await creator.close();
  const pages = {};
  for (const [who, url] of Object.entries({ white, black, spectator })) {
    const page = pages[who] = await browser.newPage();
    await page.setViewport({ width: 1200, height: 900 });
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 30_000 });
    await waitFor(page, `${who}'s board`, `${boardPieces}.length === 32`);
  }
  const roles = { white: 'You play White.', black: 'You play Black.', spectator: 'You are watching this game.' };
  for (const [who, page] of Object.entries(pages)) {
    const seen = await page.evaluate(() => ({
      role: document.getElementById('seat-role').textContent,
      black: document.getElementById('board').classList.contains('orientation-black'),
      links: [...document.querySelectorAll('#seat-links input')].map((e) => e.dataset.link).join(),
    }));
    const links = who === 'spectator' ? 'spectator' : `${who},spectator`;
    if (seen.role !== roles[who] || seen.black !== (who === 'black') || seen.links !== links) throw new Error(`${who}'s page shows ${JSON.stringify(seen)}`);
  }
  await pages.black.bringToFront();  // a page behind others is not polled by waitFor, nor polls itself
  await drag(pages.black, 'e7', 'e5');  // not Black's turn: nothing is played
  await pages.white.bringToFront();
  await drag(pages.white, 'e2', 'e4');
  await waitFor(pages.white, "White's e4", moveCount(1));
  await pages.black.bringToFront();
  await waitFor(pages.black, "White's e4 on Black's page", moveCount(1));
  await drag(pages.black, 'e7', 'e5');
  await waitFor(pages.black, "Black's e5", moveCount(2));
  await pages.white.bringToFront();
  await waitFor(pages.white, "Black's e5 on White's page", moveCount(2));
  await pages.spectator.bringToFront();
  await waitFor(pages.spectator, 'both moves on the spectator\'s page', moveCount(2));
  await drag(pages.spectator, 'g1', 'f3');
  await pages.spectator.type('#move-input', 'Nf3');
  await pages.spectator.keyboard.press('Enter');
  const refused = "this is a spectator's link: it follows the game but cannot change it";
  await waitFor(pages.spectator, "the spectator's typed move refused", `document.getElementById('message').textContent === ${JSON.stringify(refused)}`);
  if ((await call(address, 'GET', `/api/games/${state.id}`)).moves.length !== 2) throw new Error('the spectator moved');
  await settle();
  for (const [who, page] of Object.entries(pages)) await page.screenshot({ path: join(shots, `seats-${who}.png`) });
  // On a phone the seat's links and buttons stay inside the screen.
  await pages.black.bringToFront();
  await pages.black.setViewport({ width: 390, height: 844 });
  await settle();
  const outside = await pages.black.$$eval('#seat input, #seat button:not([hidden])', (all) => all.filter((e) => e.getBoundingClientRect().right > 390).map((e) => e.id || e.dataset.link || e.textContent));
  if (outside.length) throw new Error(`on a phone these lie past the right edge: ${outside.join(', ')}`);
  await pages.black.screenshot({ path: join(shots, 'seats-black-phone.png'), fullPage: true });
  await pages.black.setViewport({ width: 1200, height: 900 });
  await pages.black.bringToFront();
  await press(pages.black, '#draw-offer');
  await pages.white.bringToFront();
  await waitFor(pages.white, 'the draw offer', `document.getElementById('draw-note').textContent === 'Black offers a draw.' && !document.getElementById('draw-accept').hidden`);
  await pages.white.screenshot({ path: join(shots, 'seats-draw-offer.png') });
  await press(pages.white, '#draw-decline');
  await waitFor(pages.white, 'the offer declined', `document.getElementById('draw-note').textContent === ''`);
  await press(pages.white, '#resign');
  const resigned = 'Black wins: white resigned.';
  for (const page of [pages.white, pages.spectator]) {
    await page.bringToFront();
    await waitFor(page, 'the resignation', `document.getElementById('banner').textContent === ${JSON.stringify(resigned)}`);
  }
  for (const page of Object.values(pages)) await page.close();
}

// Passing: not offered where it is no move (the default Janggi), refused with the reason where it
// is one but not now (in check, in janggi-kakao).
async function passing(page, address) {
  const offered = await page.$eval('#variant option[value="janggi-kakao"]', (o) => o.textContent);
  if (offered !== 'janggi-kakao — Janggi as Kakao plays it: passing allowed, games without mate decided by counting')
    throw new Error(`the variant list offers "${offered}"`);
  await newGame(page, 'janggi');
  if (!(await page.$eval('#pass', (b) => b.hidden))) throw new Error('Pass is offered in a game that has no passes');
  const state = await call(address, 'POST', '/api/games', { variant: 'janggi-kakao', fen: '9/4K4/9/9/9/4r4/9/9/9/3k5 w - - 0 1' });
  await open(page, address, state);
  const button = await page.$eval('#pass', (b) => [b.hidden, b.disabled]);
  if (button.join() !== 'false,true') throw new Error(`in check Pass is (hidden, disabled) ${button}`);
  const note = await text(page, '#pass-note');
  if (note !== 'No pass now: you cannot pass while in check.') throw new Error(`in check the pass note reads "${note}"`);
  await page.screenshot({ path: join(shots, 'janggi-no-pass-in-check.png') });
}

// A perpetual chase under way is told beside the turn: Black's general frees in turn the leg of
// each horse, which then reaches Red's soldier (stepping between d10 and e10), cycle after cycle.
async function mustVary(page, address) {
  const state = await call(address, 'POST', '/api/games', { variant: 'xiangqi', fen: '3P5/3k5/3nn4/9/9/9/9/9/9/5K3 w - - 0 1' });
  for (const move of 'd10e10 d9e9 e10d10 e9d9 d10e10 d9e9 e10d10 e9d9'.split(' '))
    await call(address, 'POST', `/api/games/${state.id}/moves`, { move });
  await open(page, address, state);
  const told = 'Red to move. Black has chased the soldier on d10 with every move for 2 cycles; Black must vary.';
  await waitFor(page, 'the chase told', `document.getElementById('status').textContent === ${JSON.stringify(told)}`);
}

async function chess(page) {
  await newGame(page, 'chess');
  const moves = [['f2', 'f3'], ['e7', 'e5'], ['g2', 'g4'], ['d8', 'h4']];
  for (const [i, [from, to]] of moves.entries()) {
    await drag(page, from, to);
    await waitFor(page, `move ${from}${to}`, moveCount(i + 1));
  }
  await waitFor(page, 'checkmate', `document.getElementById('status').textContent === 'Game over: black wins: checkmate.'`);
  const banner = await text(page, '#banner');
  if (banner !== 'Black wins: checkmate.') throw new Error(`the result banner reads "${banner}"`);
  // Review: the first move clicked shows the position after it, then back to the game.
  await press(page, '#move-list button.move[data-ply="1"]');
  await waitFor(page, 'the position after 1. f3', `!document.getElementById('review').hidden && document.querySelector('#move-list button.current').dataset.ply === '1'`);
  const after = await text(page, '#review');
  if (!after.startsWith('Showing the position after move 1 (f3).')) throw new Error(`review reads "${after}"`);
  await page.click('#review-end');
  await waitFor(page, 'the game again', `document.getElementById('review').hidden`);
  await page.screenshot({ path: join(shots, 'chess-checkmate.png') });
}


// The API from the test itself, as another player would use it.
async function call(address, method, path, body) {
  const response = await fetch(address + path.replace(/^\//, ''), {
    method,
    headers: method === 'GET' ? {} : { 'Content-Type': 'application/json' },
    body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${answer.error}`);
  return answer;
}
async function gameWith(address, variant, moves = []) {
  const state = await call(address, 'POST', '/api/games', { variant });
  for (const move of moves) await call(address, 'POST', `/api/games/${state.id}/moves`, { move });
  return call(address, 'GET', `/api/games/${state.id}`);
}
const boardPieces = `document.querySelectorAll('#board cg-board piece:not(.ghost):not(.fading)')`;
async function open(page, address, state, query = '') {
  await page.goto(`${address}game/${state.id}${query}`, { waitUntil: 'domcontentloaded', timeout: 30_000 });
  await waitFor(page, `${state.variant}'s ${state.pieces.length} pieces`, `${boardPieces}.length === ${state.pieces.length}`);
}
const kindAt = async (address, id, square) => (await call(address, 'GET', `/api/games/${id}`)).pieces.find((p) => p.square === square)?.kind;

// Every piece drawn (a figurine or a face on a shape, never nothing), and no look shared by the
// two sides' pieces.
async function checkLooks(page, variant) {
  const looks = await page.evaluate(`[...${boardPieces}].map((p) => {
    const own = getComputedStyle(p), after = getComputedStyle(p, '::after');
    return { side: p.classList.contains('white') ? 0 : 1, drawn: own.backgroundImage !== 'none' || after.backgroundImage !== 'none',
             look: own.backgroundImage + '|' + after.backgroundImage + '|' + after.color };
  })`);
  if (looks.some((l) => !l.drawn)) throw new Error(`${variant}: a piece is drawn as nothing`);
  const bySide = [new Set(), new Set()];
  for (const l of looks) bySide[l.side].add(l.look);
  for (const look of bySide[0]) if (bySide[1].has(look)) throw new Error(`${variant}: both sides have a piece drawn alike`);
  if (!bySide[0].size || !bySide[1].size) throw new Error(`${variant}: a side has no pieces drawn`);
}

// Every face of every shipped variant is drawn as a glyph, not a .notdef box. A character no font
// draws comes out as the box of the first font that claims it (a shipped subset whose range names
// it, as Noto Serif TC's did 歩) or else of the fallback: each face's pixels, in the pieces' own
// font, must differ from U+10FFFD's (a codepoint no font has) in that font and in each shipped file.
async function checkFaces(page, faces) {
  const boxes = await page.evaluate(async (faces) => {
    const family = getComputedStyle(document.querySelector('#board cg-board piece'), '::after').fontFamily;
    const sources = [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules])
      .filter((rule) => rule instanceof CSSFontFaceRule)
      .map((rule) => rule.style.getPropertyValue('src').replace(/url\("?([^")]*)"?\)/g, (_, url) => `url("${new URL(url, rule.parentStyleSheet.href)}")`));
    const shipped = await Promise.all(sources.map((src, i) => new FontFace(`shipped-${i}`, src, { weight: '700' }).load()));
    shipped.forEach((font) => document.fonts.add(font));
    await Promise.all(faces.map((face) => document.fonts.load(`700 40px ${family}`, face)));
    const canvas = Object.assign(document.createElement('canvas'), { width: 48, height: 48 });
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    const print = (text, font) => {
      ctx.clearRect(0, 0, 48, 48);
      ctx.font = `700 40px ${font}`;
      ctx.fillText(text, 4, 40);
      return Array.from(ctx.getImageData(0, 0, 48, 48).data.filter((_, i) => i % 4 === 3)).join(',');
    };
    const none = String.fromCodePoint(0x10fffd);
    const notdef = new Set([print(none, family), ...shipped.map((font) => print(none, `"${font.family}"`))]);
    shipped.forEach((font) => document.fonts.delete(font));
    return faces.filter((face) => notdef.has(print(face, family)));
  }, faces);
  if (boxes.length) throw new Error(`faces drawn as boxes: ${boxes.join(' ')}`);
}

// The board fills the phone's width, and no more.
const fitsAPhone = `(() => { const r = document.querySelector('#board cg-board').getBoundingClientRect(); return r.width >= 360 && r.right <= 390; })()`;

const shotsOf = new Set(['janggi', 'xiangqi', 'shogi', 'chess']);
const openings = { janggi: ['c7c6', 'c4c5'], xiangqi: ['C2=5', 'H8+7'], shogi: ['c3c4', 'g7g6'], chess: ['e4', 'e5', 'Nf3'] };

// Every shipped variant, started from the page: drawn with its own pieces only, both sides told
// apart; the four of the screenshots, after an opening typed in their notation, at a desk's and a
// phone's size.
async function everyVariant(page, address) {
  const { variants } = await call(address, 'GET', '/api/variants');
  if (variants.length < 24) throw new Error(`only ${variants.length} variants offered`);
  const faces = new Set();
  for (const { name } of variants) {
    const began = Date.now();
    await newGame(page, name);
    const state = await call(address, 'GET', `/api/games/${await gameId(page)}`);
    await waitFor(page, `${name}'s ${state.pieces.length} pieces`, `${boardPieces}.length === ${state.pieces.length}`);
    await checkLooks(page, name);
    for (const kind of state.kinds) for (const face of kind.face ?? []) faces.add(face);
    if (process.env.VERBOSE) console.log(`  ${name}: ${Date.now() - began} ms`);
    if (!shotsOf.has(name)) continue;
    for (const [i, move] of openings[name].entries()) await type(page, move, i + 1);
    await settle();
    await page.screenshot({ path: join(shots, `${name}-1200x900.png`) });
    await page.setViewport({ width: 390, height: 844 });
    await waitFor(page, `${name} sized for a phone`, fitsAPhone);
    await settle();
    await page.screenshot({ path: join(shots, `${name}-390x844.png`) });
    await page.setViewport({ width: 1200, height: 900 });
  }
  if (faces.size < 30) throw new Error(`only ${faces.size} faces among the shipped variants`);
  await checkFaces(page, [...faces]);
}

// Shogi: the bishop takes its opposite number and declines to promote by the picker; taken
// back, it is dropped from the hand by clicks. In another game it promotes by the picker.
async function shogiDropsAndPromotions(page, address) {
  const opening = ['c3c4', 'g7g6'];
  let state = await gameWith(address, 'shogi', opening);
  await open(page, address, state);
  await drag(page, 'b2', 'h8');
  await page.waitForSelector('.picker button.decline', { timeout: 5_000 });
  await settle();
  await page.screenshot({ path: join(shots, 'shogi-picker.png') });
  await press(page, '.picker button.decline');
  await waitFor(page, 'the bishop taking', moveCount(3));
  if ((await kindAt(address, state.id, 'h8')) !== 'bishop') throw new Error('declining promotion did not keep a bishop');
  await call(address, 'POST', `/api/games/${state.id}/moves`, { move: 'g9h8' });  // from another tab
  await waitFor(page, 'the recapture, from the other tab', moveCount(4));
  await press(page, '#hand-bottom button.held[data-kind="bishop"]');
  await click(page, 'e5');
  await waitFor(page, 'the drop', moveCount(5));
  if ((await kindAt(address, state.id, 'e5')) !== 'bishop') throw new Error('the bishop was not dropped on e5');
  await settle();
  await page.screenshot({ path: join(shots, 'shogi-drop.png') });

  state = await gameWith(address, 'shogi', opening);
  await open(page, address, state);
  await drag(page, 'b2', 'h8');
  await page.waitForSelector('.picker button[data-kind="horse"]', { timeout: 5_000 });
  await press(page, '.picker button[data-kind="horse"]');
  await waitFor(page, 'the promotion', moveCount(3));
  if ((await kindAt(address, state.id, 'h8')) !== 'horse') throw new Error('the picker did not promote the bishop');
}

async function crazyhouseDrop(page, address) {
  const state = await gameWith(address, 'crazyhouse', ['e2e4', 'd7d5', 'e4d5', 'd8d5']);
  await open(page, address, state);
  await press(page, '#hand-bottom button.held[data-kind="pawn"]');
  await click(page, 'e4');
  await waitFor(page, 'the pawn drop', moveCount(5));
  if ((await kindAt(address, state.id, 'e4')) !== 'pawn') throw new Error('the pawn was not dropped on e4');
}

async function chessPromotion(page, address) {
  const state = await call(address, 'POST', '/api/games', { variant: 'chess', fen: '7k/P7/8/8/8/8/8/K7 w - - 0 1' });
  await open(page, address, state);
  await drag(page, 'a7', 'a8');
  await page.waitForSelector('.picker button[data-kind="knight"]', { timeout: 5_000 });
  if (await page.$('.picker button.decline')) throw new Error("a chess pawn was offered not to promote");
  await press(page, '.picker button[data-kind="knight"]');
  await waitFor(page, 'the promotion', moveCount(1));
  if ((await kindAt(address, state.id, 'a8')) !== 'knight') throw new Error('the picker did not promote to a knight');
}

// The picker lies inside the screen wherever the promotion is, at a desk's and a phone's size:
// black's b2xa1 and white's c7xb8 by the left edge, h7-h8 by the phone's right edge.
async function pickerOnScreen(page, what) {
  await page.waitForSelector('.picker button', { timeout: 5_000 });
  const outside = await page.$$eval('.picker button', (buttons) => buttons.map((b) => [b.getAttribute('aria-label') ?? b.textContent, b.getBoundingClientRect()])
    .filter(([, r]) => r.left < 0 || r.top < 0 || r.right > document.documentElement.clientWidth || r.bottom > document.documentElement.clientHeight)
    .map(([name, r]) => `${name} at x ${Math.round(r.left)}-${Math.round(r.right)}, y ${Math.round(r.top)}-${Math.round(r.bottom)}`));
  if (outside.length) throw new Error(`${what}: the picker's ${outside.join(', ')} is off the screen`);
}
async function pickerInsideTheScreen(page, address) {
  const state = await call(address, 'POST', '/api/games', { variant: 'chess', fen: '1n6/2P4P/8/4k3/8/8/1p5K/R7 b - - 0 1' });
  await open(page, address, state);
  await drag(page, 'b2', 'a1');
  await pickerOnScreen(page, 'b2xa1 at 1200x900');
  await page.screenshot({ path: join(shots, 'chess-picker-edge.png') });
  await press(page, '.picker button[data-kind="queen"]');
  await waitFor(page, 'the promotion to a queen', moveCount(1));
  if ((await kindAt(address, state.id, 'a1')) !== 'queen') throw new Error('the queen chosen by the picker is not on a1');
  await drag(page, 'c7', 'b8');
  await pickerOnScreen(page, 'c7xb8 at 1200x900');
  await press(page, '.picker button.cancel');
  await page.setViewport({ width: 390, height: 844 });
  await waitFor(page, 'the board sized for a phone', fitsAPhone);
  await drag(page, 'h7', 'h8');
  await pickerOnScreen(page, 'h7-h8 at 390x844');
  await page.screenshot({ path: join(shots, 'chess-picker-phone.png') });
  await press(page, '.picker button[data-kind="queen"]');
  await waitFor(page, 'the promotion on h8', moveCount(2));
  await page.setViewport({ width: 1200, height: 900 });
  if ((await kindAt(address, state.id, 'h8')) !== 'queen') throw new Error('the queen chosen on the phone is not on h8');
}

// A piece dragged from its point to beside the board, as a player throws one away.
async function dragOff(page, name) {
  const { x, y } = await point(page, name);
  const box = await (await page.$('#board cg-board')).boundingBox();
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width + 60, y, { steps: 8 });
  await page.mouse.up();
}

// The position editor as the player used it: a cleared chess board set up with Kg1 Qh6
// Pf6 kg8 is played from (the start's castling rights dropped), a piece dragged off leaves the
// FEN, a refused set-up stays on the board with its reason, and a shogi pawn is put in a hand.
async function positionEditor(page, address) {
  await newGame(page, 'chess');
  await page.click('#edit');
  await page.click('#editor-clear');
  const put = async (piece, square) => {
    const button = `#palette button[aria-label="put a ${piece}"]`;
    await press(page, button);
    await waitFor(page, `the ${piece} picked`, `document.querySelector('${button}').classList.contains('picked')`);
    await click(page, square);
  };
  for (const [piece, square] of [['white king', 'g1'], ['white queen', 'h6'], ['white pawn', 'f6'], ['black rook', 'a8']]) await put(piece, square);
  // Each piece where it was put, the rook on a8 seen before it is dragged away.
  await waitFor(page, 'the four pieces put', `document.getElementById('fen').value.startsWith('r7/8/5P1Q/8/8/8/8/6K1 w ')`);
  await dragOff(page, 'a8');
  await waitFor(page, 'the rook dragged off gone from the FEN', `document.getElementById('fen').value.startsWith('8/8/5P1Q/8/8/8/8/6K1 w ')`);
  await page.click('#editor-apply');
  await waitFor(page, 'the refusal of a set-up without a black king', `document.getElementById('message').textContent.startsWith('fen: ')`);
  const kept = await page.evaluate(`!document.getElementById('editor').hidden && ${boardPieces}.length`);
  if (kept !== 3) throw new Error(`after the refusal the editor shows ${kept} pieces, not the 3 set up`);
  await put('black king', 'g8');
  await page.click('#editor-apply');
  await waitFor(page, 'play from the set-up', `document.getElementById('editor').hidden && document.getElementById('status').textContent === 'White to move.'`);
  const id = await gameId(page);
  const { fen } = await call(address, 'GET', `/api/games/${id}`);
  if (fen !== '6k1/8/5P1Q/8/8/8/8/6K1 w - - 0 1') throw new Error(`the game plays from ${fen}`);
  await drag(page, 'h6', 'g7');
  await waitFor(page, 'Qg7 mating', `document.getElementById('status').textContent === 'Game over: white wins: checkmate.'`);

  await newGame(page, 'shogi');
  await page.click('#edit');
  await dragOff(page, 'c3');
  await press(page, '#palette button[aria-label="put a sente pawn"]');
  await press(page, '#hand-bottom button.add-to-hand');
  await waitFor(page, 'the pawn in the FEN\'s hand', `document.getElementById('fen').value.includes('[P]')`);
  await page.click('#editor-apply');
  await waitFor(page, 'the pawn in the hand', `document.getElementById('editor').hidden && document.querySelector('#hand-bottom button.held[data-kind="pawn"]') !== null`);
  await settle();
  await page.screenshot({ path: join(shots, 'shogi-edited-hand.png') });
  await press(page, '#hand-bottom button.held[data-kind="pawn"]');
  await click(page, 'c4');
  await waitFor(page, 'the pawn dropped from the edited hand', moveCount(1));
  if ((await kindAt(address, await gameId(page), 'c4')) !== 'pawn') throw new Error('the pawn put in the hand was not dropped on c4');
}

// Against Palace: the engine answers a move by itself, and undo takes back both.
async function againstPalace(page, address) {
  const state = await gameWith(address, 'chess');
  await open(page, address, state);
  await page.select('#level', '1');
  await page.select('#opponent', '1');
  // Only the human's seat is offered: the engine's stays with this page, which asks for its moves.
  const offered = await page.$$eval('#seat-links input', (inputs) => inputs.map((e) => e.dataset.link).join());
  if (offered !== 'white,spectator') throw new Error(`against Palace the page offers the links ${offered}`);
  await drag(page, 'e2', 'e4');
  await waitFor(page, "the engine's answer", moveCount(2));
  await page.click('#undo');
  await waitFor(page, 'both moves taken back', moveCount(0));
  const status = await text(page, '#status');
  if (status !== 'White to move.') throw new Error(`after undo the status reads "${status}"`);
}

// A game's link, flipped, opens the same game turned round in a new tab; a move there shows in
// the first tab.
// A shogi record file picked on the page becomes the game; the keys and the buttons step through
// it; the game downloads as CSA, which reads back as the same moves; an unreadable file is refused
// in one line and the game shown stays.
async function records(page, address) {
  const records = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'records');
  await open(page, address, await gameWith(address, 'chess'));
  await page.select('#variant', 'shogi');
  await (await page.$('#record-import')).uploadFile(join(records, 'shogi-jt-2014.kif'));
  await waitFor(page, 'the record as the game', `${moveCount(107)} && document.getElementById('board').dataset.family === 'shogi'`);
  if ((await text(page, '#message')) !== 'Started from shogi-jt-2014.kif: 107 moves.') throw new Error(`the import says "${await text(page, '#message')}"`);
  await page.focus('#board');
  await page.keyboard.press('Home');
  await waitFor(page, 'the start', `document.getElementById('review-ply').textContent === 'Showing the start position.'`);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await waitFor(page, 'the second move', `document.querySelector('#move-list button.current')?.dataset.ply === '2'`);
  const second = await text(page, '#review-ply');
  if (second !== 'Showing the position after move 1 (☖８四歩(83)).') throw new Error(`after two steps the page reads "${second}"`);
  await settle();
  await page.screenshot({ path: join(shots, 'records-review.png') });
  await press(page, '#nav-back');
  await waitFor(page, 'one move back', `document.querySelector('#move-list button.current')?.dataset.ply === '1'`);
  await press(page, '#nav-last');
  await waitFor(page, 'the game now', `document.getElementById('review').hidden && document.getElementById('nav-on').disabled`);

  const downloads = join(scratch, 'downloads');
  mkdirSync(downloads, { recursive: true });
  const cdp = await page.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
  const formats = await page.$$eval('#record-format option', (o) => o.map((e) => e.value).join());
  if (formats !== 'pgn,kif,ki2,csa') throw new Error(`shogi's record formats are ${formats}`);
  await page.select('#record-format', 'csa');
  await press(page, '#record-export');
  const id = await gameId(page);
  const file = join(downloads, `palace-${id.slice(0, 8)}.csa`);
  for (let i = 0; i < 100 && !existsSync(file); ++i) await new Promise((done) => setTimeout(done, 100));
  if (!existsSync(file)) throw new Error(`no download; the folder holds ${readdirSync(downloads).join()}`);
  const csa = readFileSync(file, 'utf8');
  if (!csa.includes('+7776FU') || csa.split('\n').filter((l) => /^[+-]\d{4}[A-Z]{2}/.test(l)).length !== 107)
    throw new Error(`the CSA download reads ${csa.slice(0, 200)}`);

  await (await page.$('#record-import')).uploadFile(join(records, 'chess-immortal-game.pgn'));
  await waitFor(page, 'the refusal', `document.getElementById('message').textContent.startsWith('chess-immortal-game.pgn: record: move 1')`);
  if ((await gameId(page)) !== id) throw new Error('a refused record replaced the game');
}

async function linksAndTabs(page, browser, address) {
  const state = await gameWith(address, 'xiangqi', ['C2=5']);
  await open(page, address, state);
  await page.click('#flip');
  await waitFor(page, 'the flip in the address', `location.search === '?flip=1' && document.getElementById('board').classList.contains('orientation-black')`);
  const second = await browser.newPage();
  await second.setViewport({ width: 1200, height: 900 });
  await open(second, address, state, '?flip=1');
  const restored = await second.evaluate(() => ({
    variant: document.getElementById('variant').value,
    black: document.getElementById('board').classList.contains('orientation-black'),
    moves: [...document.querySelectorAll('#move-list button.move')].map((b) => b.textContent),
  }));
  if (restored.variant !== 'xiangqi' || !restored.black || restored.moves.join() !== '炮二平五')
    throw new Error(`the link restored ${JSON.stringify(restored)}`);
  await drag(second, 'h10', 'g8');  // black's horse
  await waitFor(second, 'the move in the second tab', moveCount(2));
  await page.bringToFront();
  await waitFor(page, 'the move in the first tab', moveCount(2));
  await second.close();
  await page.goto(`${address}game/no-such-game`, { waitUntil: 'networkidle0' });
  const banner = await text(page, '#banner');
  if (!banner.startsWith('Game not found') || (await page.$('#board piece'))) throw new Error(`an unknown game shows "${banner}"`);
}

try {
  const address = await startServer();
  browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 900 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(address, { waitUntil: 'networkidle0', timeout: 30_000 });
  await page.waitForSelector('#board piece', { timeout: 15_000 });
  const began = Date.now();
  for (const [name, step] of Object.entries({ janggi: () => janggi(page, address),
    janggiAsNotated: () => janggiAsNotated(page, address), notation: () => notation(page, address), wrongTurn: () => wrongTurn(page),
    clocks: () => clocks(browser, address), seats: () => seats(browser, address),
    passing: () => passing(page, address), mustVary: () => mustVary(page, address), chess: () => chess(page),
    everyVariant: () => everyVariant(page, address), shogi: () => shogiDropsAndPromotions(page, address),
    crazyhouse: () => crazyhouseDrop(page, address), promotion: () => chessPromotion(page, address),
    picker: () => pickerInsideTheScreen(page, address), editor: () => positionEditor(page, address),
    againstPalace: () => againstPalace(page, address), records: () => records(page, address),
    linksAndTabs: () => linksAndTabs(page, browser, address), omega: () => omega(page, address) })) {
    if (process.env.STEPS && !process.env.STEPS.split(',').includes(name)) continue;
    await step();
    console.log(`${name} passed (${((Date.now() - began) / 1000).toFixed(1)} s)`);
  }
  if (errors.length) throw new Error(`the page threw: ${errors.join('; ')}`);
  await cleanup();
  console.log(`browser test passed; screenshots in ${shots}`);
  process.exit(0);
} catch (e) {
  fail(e.message);
}
