// The hostile tenant: `palace serve` on a free port, fed the inputs of tests/repro/serve-and-hooks/
// (hostile uploads and games on them asking the engine, a request flood, bodies too big, chunked or
// compressed, requests from another site) and audit-4's slowloris.py (260 connections dripping a
// header byte every 4 s) and gc_near_cap.lua (a hook filling its heap to just under the cap, then
// allocating) while a second client plays a game of chess. Each answer
// to that client must come within 1 s, every move it played must be stored, no answer to anyone may
// be a 5xx, and the server's RSS must stay under RSS_CAP_MB. Prints the figures. Bounded: fails by
// itself after 90 s.
//   node tests/server/hostile_tenant.mjs build/palace [SECONDS=20] [RSS_CAP_MB=768]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServe } from '../../web/tests/serve.mjs';

const [palace, secondsArg = '20', capArg = '768'] = process.argv.slice(2);
if (!palace) {
  console.error('usage: node tests/server/hostile_tenant.mjs PALACE_BINARY [SECONDS] [RSS_CAP_MB]');
  process.exit(2);
}
const attackSeconds = Number(secondsArg), rssCapMb = Number(capArg);
const answerBoundMs = 1000;
const repro = join(dirname(fileURLToPath(import.meta.url)), '..', 'repro', 'serve-and-hooks', 'uploads');
const audit4 = join(dirname(fileURLToPath(import.meta.url)), '..', 'repro', 'audit-4');

// audit-4's near-cap heap, uploaded as its gc_upload.py does: its pawns' allow_move is the hook.
function nearCapUpload() {
  return {
    yaml: 'import: [chess.yaml]\nname: gcnear\nscripts: {s: s.lua}\npieces:\n  pawn: {hooks: {allow_move: s.h}}\n',
    scripts: { 's.lua': readFileSync(join(audit4, 'gc_near_cap.lua'), 'utf8') },
  };
}
const scratch = mkdtempSync(join(tmpdir(), 'palace-tenant-'));
let server, port, peakRssKb = 0;
const limit = setTimeout(() => fail('took over 90 s'), 90_000);

function fail(message) {
  console.error(`FAIL: ${message}`);
  server?.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
  process.exit(1);
}

// Hooks' print output, capped by the server, is dropped.
async function start() {
  ({ server, port } = await startServe(palace, join(scratch, 'games.db'), { stderr: 'ignore' }));
}

function sampleRss() {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]);
    peakRssKb = Math.max(peakRssKb, kb);
  } catch { /* the server is gone: the checks below say so */ }
}

// One request on `agent`; resolves with the status and the parsed JSON answer.
function call(agent, method, path, body, headers = {}) {
  return new Promise((ok, ko) => {
    const data = body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    const request = http.request({ host: '127.0.0.1', port, method, path, agent, timeout: 30_000,
      headers: { 'Content-Type': 'application/json', ...(data === undefined ? {} : { 'Content-Length': Buffer.byteLength(data) }), ...headers } },
    (response) => {
      const parts = [];
      response.on('data', (c) => parts.push(c));
      response.on('end', () => {
        let answer = null;
        try { answer = JSON.parse(Buffer.concat(parts).toString()); } catch { /* checked by the caller */ }
        ok({ status: response.statusCode, answer, reused: request.reusedSocket });
      });
    });
    request.on('timeout', () => request.destroy(new Error(`${method} ${path}: no answer in 30 s`)));
    request.on('error', ko);
    if (data !== undefined) request.write(data);
    request.end();
  });
}

// A request written by hand on a socket of its own: whatever the server answers first, or '' when
// it closes without answering.
function raw(head, body, { trickleMs = 0 } = {}) {
  return new Promise((ok) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '', timer;
    socket.on('data', (c) => { answer += c; });
    socket.on('error', () => {});
    socket.on('close', () => { clearInterval(timer); ok(answer); });
    socket.setTimeout(10_000, () => socket.destroy());
    socket.write(head);
    if (trickleMs === 0) {
      socket.write(body, () => socket.end());
    } else {  // a chunked body that never ends, sent until the server hangs up or the time is up
      const began = Date.now();
      timer = setInterval(() => {
        if (Date.now() - began > trickleMs || socket.destroyed) { clearInterval(timer); socket.destroy(); return; }
        socket.write(`10000\r\n${'x'.repeat(0x10000)}\r\n`);
      }, 5);
    }
  });
}

const answers5xx = [];
function noServerError(what, status) {
  if (status >= 500 && status !== 507) answers5xx.push(`${what} answered ${status}`);
}

// The hostile side, until `until`: every upload of the repro folder (names made unique), each
// accepted one played with the strongest engine, a flood of small requests, bad bodies and
// requests from another site.
async function attack(until) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 48 });
  const uploads = readdirSync(repro).filter((f) => f.endsWith('_upload.json')).map((f) => JSON.parse(readFileSync(join(repro, f), 'utf8')));
  uploads.push(nearCapUpload());
  const counts = { uploads: 0, accepted: 0, engine: 0, deadline: 0, flood: 0, bodies: 0, foreign: 0, slow: 0 };
  let round = 0;

  const hostileUploads = async () => {
    while (Date.now() < until) {
      round++;
      await Promise.all(uploads.map(async (upload, i) => {
        const yaml = upload.yaml.replace(/^name: .*$/m, `name: hostile-${round}-${i}`);
        const { status, answer } = await call(agent, 'POST', '/api/variants', { ...upload, yaml });
        counts.uploads++;
        noServerError('an upload', status);
        if (status !== 201) return;
        counts.accepted++;
        const games = await Promise.all([0, 1, 2].map(() => call(agent, 'POST', '/api/games', { variant: answer.variant })));
        await Promise.all(games.filter((g) => g.status === 201).map(async (g) => {
          const reply = await call(agent, 'POST', `/api/games/${g.answer.id}/engine`, { level: 10 });
          counts.engine++;
          // The hooks' deadline (palace serve --hook-deadline-ms) cut the request short: the
          // attacker's own game, answered in one line.
          if (reply.status === 503 && /hooks ran past the request's deadline/.test(reply.answer?.error)) counts.deadline++;
          else noServerError('an engine move on a hostile variant', reply.status);
        }));
      }));
    }
  };

  const flood = async () => {
    while (Date.now() < until) {
      const made = await call(agent, 'POST', '/api/games', { variant: 'chess' });
      noServerError('a flood game', made.status);
      const reads = await Promise.all([
        call(agent, 'GET', '/api/variants'),
        made.status === 201 ? call(agent, 'POST', `/api/games/${made.answer.id}/moves`, { move: 'z9z9' }) : { status: 0 },
        call(agent, 'GET', '/api/games/nonexistent'),
      ]);
      reads.forEach((r) => noServerError('a flood request', r.status));
      counts.flood += 4;
    }
  };

  const bodies = async () => {
    const gzip = readFileSync(join(repro, 'bomb800.json.gz'));
    while (Date.now() < until) {
      const head = (extra, length) => `POST /api/variants HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n${extra}` +
        (length === undefined ? '' : `Content-Length: ${length}\r\n`) + '\r\n';
      const big = 3 << 20;
      const answers = await Promise.all([
        raw(head('', big), Buffer.alloc(big, 'x')),
        raw(head('Transfer-Encoding: chunked\r\n'), '', { trickleMs: 1500 }),
        raw(head('Content-Encoding: gzip\r\n', gzip.length), gzip),
        raw(head('', big).replace('application/json', 'application/x-www-form-urlencoded'), Buffer.alloc(big, 'a')),
      ]);
      for (const a of answers) {
        const status = Number(/^HTTP\/1\.1 (\d+)/.exec(a)?.[1] ?? 0);
        if (status === 0 && a !== '') answers5xx.push(`a bad body got no HTTP answer: ${a.slice(0, 80)}`);
        noServerError('a bad body', status);
        if (status !== 0 && (status < 400 || status >= 500)) answers5xx.push(`a bad body was answered ${status}`);
      }
      counts.bodies += answers.length;
    }
  };

  const foreign = async () => {
    while (Date.now() < until) {
      const refused = await Promise.all([
        call(agent, 'POST', '/api/games', '{"variant": "chess"}', { 'Content-Type': 'text/plain', Origin: 'http://evil.example' }),
        call(agent, 'POST', '/api/variants', { yaml: 'import: [chess.yaml]\nname: evil\n' }, { Origin: 'http://evil.example' }),
        call(agent, 'GET', '/api/variants', undefined, { Host: `evil.example:${port}` }),
      ]);
      for (const r of refused) {
        if (r.status !== 403 && r.status !== 415) answers5xx.push(`a request from another site was answered ${r.status}`);
      }
      counts.foreign += refused.length;
      await new Promise((ok) => setTimeout(ok, 20));
    }
  };

  // slowloris.py: each connection sends a request head a byte every 4 s, and is opened again once
  // the server refuses it (408, past the deadline for a head) or closes it.
  const slowConnection = () => new Promise((ok) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    const timer = setInterval(() => {
      if (Date.now() >= until) { clearInterval(timer); socket.destroy(); return; }
      socket.write('X');
    }, 4000);
    socket.on('data', (c) => { answer += c; });
    socket.on('error', () => {});
    socket.on('close', () => { clearInterval(timer); ok(answer); });
    socket.write(`GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
  });
  const slow = async () => {
    while (Date.now() < until) {
      const answer = await slowConnection();
      counts.slow++;
      if (answer !== '' && !answer.startsWith('HTTP/1.1 408 ')) answers5xx.push(`a slow connection was answered ${answer.slice(0, 60)}`);
    }
  };

  await Promise.all([hostileUploads(), hostileUploads(), flood(), flood(), flood(), flood(), bodies(), foreign(),
    ...Array.from({ length: 260 }, slow)]);
  agent.destroy();
  return counts;
}

// The other client: a game of chess, a random legal move at a time with the engine (level 1)
// answering every third, each answer timed.
// The game is made before the attack starts (the first game of a variant compiles it); every
// answer after that is timed.
async function newGame() {
  const { status, answer } = await call(undefined, 'POST', '/api/games', { variant: 'chess' });
  if (status !== 201) throw new Error(`the player's game: create answered ${status}`);
  return answer;
}

async function play(state, until) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = [];
  // A slow answer says whether it needed a new connection, and how long this process's own event
  // loop (the attack's too) was held meanwhile: time the server did not spend.
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  stalls.enable();
  const timed = async (method, path, body) => {
    stalls.reset();
    const began = performance.now();
    const reply = await call(agent, method, path, body);
    const ms = performance.now() - began;
    latencies.push(ms);
    if (ms > answerBoundMs) {
      throw new Error(`${method} ${path} took ${ms.toFixed(0)} ms (bound ${answerBoundMs} ms; ${reply.reused ? 'a kept' : 'a new'} ` +
        `connection; this client's event loop held up to ${(stalls.max / 1e6).toFixed(0)} ms meanwhile)`);
    }
    return reply;
  };
  let seed = 7;
  const next = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / (1 << 24);
  const played = [];
  while (Date.now() < until && !state.result.finished && played.length < 200) {
    const engine = played.length % 3 === 2;
    const reply = engine ? await timed('POST', `/api/games/${state.id}/engine`, { level: 1 })
      : await timed('POST', `/api/games/${state.id}/moves`, { move: state.legal_moves[Math.floor(next() * state.legal_moves.length)] });
    if (reply.status !== 200) throw new Error(`the player's move ${played.length + 1} answered ${reply.status} ${JSON.stringify(reply.answer)}`);
    played.push(reply.answer.moves[reply.answer.moves.length - 1]);
    if (JSON.stringify(reply.answer.moves) !== JSON.stringify(played)) throw new Error(`the player's moves differ after move ${played.length}`);
    state = reply.answer;
    await timed('GET', `/api/games/${state.id}`);
    await new Promise((ok) => setTimeout(ok, 50));
  }
  agent.destroy();
  return { id: state.id, played, latencies };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

try {
  await start();
  const sampler = setInterval(sampleRss, 50);
  const opening = await newGame();
  const until = Date.now() + attackSeconds * 1000;
  const [counts, game] = await Promise.all([attack(until), play(opening, until)]);
  clearInterval(sampler);
  sampleRss();

  const stored = await call(undefined, 'GET', `/api/games/${game.id}`);
  if (stored.status !== 200 || JSON.stringify(stored.answer.moves) !== JSON.stringify(game.played))
    throw new Error(`the player's game as stored differs: ${JSON.stringify(stored.answer?.moves)}`);
  if (answers5xx.length > 0) throw new Error(`${answers5xx.length} bad answers, first: ${answers5xx[0]}`);
  if (peakRssKb > rssCapMb * 1024) throw new Error(`server RSS peaked at ${(peakRssKb / 1024).toFixed(0)} MB (cap ${rssCapMb} MB)`);
  const sorted = [...game.latencies].sort((a, b) => a - b);
  console.log(`${attackSeconds} s under attack: ${counts.uploads} uploads (${counts.accepted} accepted, ${counts.engine} engine moves on them, ` +
    `${counts.deadline} of them cut short by the hooks' deadline), ${counts.flood} flood requests, ${counts.bodies} bad bodies, ` +
    `${counts.foreign} foreign requests, ${counts.slow} slow connections`);
  console.log(`the player: ${game.played.length} moves stored, ${sorted.length} answers, p50 ${percentile(sorted, 50).toFixed(1)} ms, ` +
    `max ${sorted[sorted.length - 1].toFixed(1)} ms (bound ${answerBoundMs} ms); server RSS peak ${(peakRssKb / 1024).toFixed(0)} MB (cap ${rssCapMb} MB)`);
  server.kill('SIGTERM');
  clearTimeout(limit);
  rmSync(scratch, { recursive: true, force: true });
} catch (e) {
  fail(e.cause ? `${e.message}: ${e.cause.message ?? e.cause}` : e.message);
}
