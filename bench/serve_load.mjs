// Load test of `palace serve` on 127.0.0.1: GAMES games played at once by as many concurrent
// clients, PLIES moves each, each side's through its own seat key on a server-kept clock, every
// answer checked (each move kept, an illegal move refused with 422); then the server is stopped and
// started again on the same database and every game must be there, move for move, its clock not
// reset. Prints requests per second and the p50/p99 latency of the played phase.
// Bounded: it stops by itself, failing, after 5 minutes.
//   node bench/serve_load.mjs build/palace [GAMES=200] [PLIES=20]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe } from '../web/tests/serve.mjs';

const [palace, gamesArg = '200', pliesArg = '20'] = process.argv.slice(2);
if (!palace) {
  console.error('usage: node bench/serve_load.mjs PALACE_BINARY [GAMES] [PLIES]');
  process.exit(2);
}
const games = Number(gamesArg), plies = Number(pliesArg);
const variants = ['janggi', 'chess', 'xiangqi', 'janggi-modern'];
const scratch = mkdtempSync(join(tmpdir(), 'palace-load-'));
const db = join(scratch, 'games.db');
let server;
const limit = setTimeout(() => fail('took over 5 minutes'), 300_000);

function fail(message) {
  console.error(`FAIL: ${message}`);
  server?.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
  process.exit(1);
}

// The server's address without its final slash: paths are appended to it.
async function start() {
  let address;
  ({ server, address } = await startServe(palace, db));
  return address.replace(/\/$/, '');
}
function stop() {
  return new Promise((ok) => {
    server.on('exit', ok);
    server.kill('SIGTERM');
  });
}

const latencies = [];
async function call(base, method, path, body) {
  const began = performance.now();
  const response = await fetch(base + path, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  latencies.push(performance.now() - began);
  return { status: response.status, answer };
}

// A small seeded generator, so a run is the same game set every time.
function random(seed) {
  let s = seed >>> 0 || 1;
  return () => ((s = (s * 1103515245 + 12345) >>> 0) >>> 8) / (1 << 24);
}

async function play(base, index) {
  const next = random(index + 1);
  let { status, answer: state } = await call(base, 'POST', '/api/games', { variant: variants[index % variants.length], clock: { initial: 3600, increment: 5 } });
  if (status !== 201) throw new Error(`game ${index}: create answered ${status} ${JSON.stringify(state)}`);
  const { id, seats } = state;
  const played = [];
  for (let ply = 0; ply < plies && !state.result.finished; ply++) {
    if (ply === 3) {
      const taken = new Set(state.pieces.map((p) => p.square));
      const empty = ['d5', 'e5', 'e6', 'd6', 'f5', 'f6'].filter((s) => !taken.has(s));
      const illegal = empty[0] + (empty[1] ?? 'a1');  // a move from an empty point
      const refused = await call(base, 'POST', `/api/games/${seats[state.turn_name]}/moves`, { move: illegal });
      if (refused.status !== 422 || !refused.answer.error) throw new Error(`game ${index}: an illegal move answered ${refused.status}`);
    }
    const move = state.legal_moves[Math.floor(next() * state.legal_moves.length)];
    const reply = await call(base, 'POST', `/api/games/${seats[state.turn_name]}/moves`, { move });
    played.push(move);
    if (reply.status !== 200) throw new Error(`game ${index}: ${move} answered ${reply.status} ${JSON.stringify(reply.answer)}`);
    if (JSON.stringify(reply.answer.moves) !== JSON.stringify(played)) throw new Error(`game ${index}: moves lost after ${move}`);
    state = reply.answer;
  }
  const waiting = state.sides.findIndex((side) => side.name !== state.clock.running);
  return { id, moves: played, fen: state.fen, waiting, left: state.clock.left_ms[waiting] };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

try {
  let base = await start();
  const began = performance.now();
  const results = await Promise.all(Array.from({ length: games }, (_, i) => play(base, i)));
  const seconds = (performance.now() - began) / 1000;
  const sorted = [...latencies].sort((a, b) => a - b);
  const moves = results.reduce((n, r) => n + r.moves.length, 0);
  console.log(`${games} games at once, ${moves} moves, ${latencies.length} requests in ${seconds.toFixed(2)} s: ` +
    `${Math.round(latencies.length / seconds)} requests/s, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`);

  await stop();
  base = await start();
  for (const game of results) {
    const { status, answer } = await call(base, 'GET', `/api/games/${game.id}`);
    if (status !== 200) throw new Error(`after the restart game ${game.id} answered ${status}`);
    if (JSON.stringify(answer.moves) !== JSON.stringify(game.moves) || answer.fen !== game.fen)
      throw new Error(`after the restart game ${game.id} differs`);
    if (answer.clock.left_ms[game.waiting] !== game.left)
      throw new Error(`after the restart game ${game.id}'s clock reads ${answer.clock.left_ms[game.waiting]} ms, not ${game.left}`);
  }
  console.log(`after a restart all ${results.length} games are there, move for move`);
  await stop();
  clearTimeout(limit);
  rmSync(scratch, { recursive: true, force: true });
} catch (e) {
  fail(e.cause ? `${e.message}: ${e.cause.message ?? e.cause}` : e.message);
}
