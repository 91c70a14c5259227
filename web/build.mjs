// Bundles the board page and the variant workshop: node build.mjs NODE_MODULES_DIR OUT_DIR. The packages come from the
// folder npm installed them in (the build folder), so the source tree holds no node_modules.
import { createRequire } from 'node:module';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const [modules, out] = process.argv.slice(2).map((p) => p && resolve(p));
if (!modules || !out) {
  console.error('usage: node build.mjs NODE_MODULES_DIR OUT_DIR');
  process.exit(2);
}
const require = createRequire(join(modules, 'noop.js'));
const esbuild = require('esbuild');
const src = join(dirname(fileURLToPath(import.meta.url)), 'src');

mkdirSync(out, { recursive: true });
await esbuild.build({
  entryPoints: { app: join(src, 'app.ts'), workshop: join(src, 'workshop/main.ts') },
  bundle: true,
  format: 'esm',
  target: 'es2020',
  minify: true,
  outdir: out,
  nodePaths: [modules],
  logLevel: 'warning',
});
copyFileSync(join(modules, 'chessgroundx/assets/chessground.base.css'), join(out, 'chessground.base.css'));
for (const file of ['style.css', 'index.html', 'workshop.css', 'workshop.html']) copyFileSync(join(src, file), join(out, file));
