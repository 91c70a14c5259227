// node bench/serve_state_time.mjs PORT PLIES: against a running `palace serve`, plays PLIES random legal
// shogi moves (a fixed seed), then times 20 GETs of the game's state (docs/engine-log.md).
const [port, plies] = process.argv.slice(2).map(Number);
const base = `http://127.0.0.1:${port}/api/`;
const call = async (m, p, b) => (await fetch(base + p, { method: m, headers: m === 'GET' ? {} : { 'Content-Type': 'application/json' }, body: m === 'GET' ? undefined : JSON.stringify(b ?? {}) })).json();
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
let s = await call('POST', 'games', { variant: 'shogi' });
for (let i = 0; i < plies && !s.result.finished; i++) s = await call('POST', `games/${s.id}/moves`, { move: s.legal_moves[Math.floor(random() * s.legal_moves.length)] });
const times = [];
for (let i = 0; i < 20; i++) { const t = performance.now(); await call('GET', `games/${s.id}`); times.push(performance.now() - t); }
times.sort((a, b) => a - b);
console.log(`${s.moves.length} plies: GET state median ${times[10].toFixed(1)} ms, min ${times[0].toFixed(1)} ms`);
