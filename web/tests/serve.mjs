// `palace serve` on a free port of 127.0.0.1, for the scripts that test or load it (the browser and
// workshop tests, bench/serve_load.mjs, tests/server/hostile_tenant.mjs). The server prints its
// address once it listens; that line may come split over chunks, so the output is read as a whole.
//   const { server, port, address } = await startServe(palace, db);  // address: http://127.0.0.1:PORT/
// `stderr` is passed to spawn ('inherit' shows the server's messages, 'ignore' drops them).
import { spawn } from 'node:child_process';

export function startServe(palace, db, { stderr = 'inherit' } = {}) {
  return new Promise((ok, ko) => {
    const server = spawn(palace, ['serve', '--port', '0', '--db', db], { stdio: ['ignore', 'pipe', stderr] });
    let said = '', listening = false;
    server.on('error', ko);
    server.on('exit', (code, signal) => {
      if (!listening) ko(new Error(`palace serve ended (${signal ?? `exit ${code}`}) before it listened: ${said.trim()}`));
    });
    server.stdout.on('data', (chunk) => {
      if (listening) return;  // read on, so that the pipe never fills
      said += chunk;
      const found = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(said);
      if (!found) return;
      listening = true;
      ok({ server, port: Number(found[1]), address: found[0] });
    });
  });
}
