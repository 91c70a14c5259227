// Bundles the board page and the variant workshop: node build.mjs NODE_MODULES_DIR OUT_DIR. The packages come from the
// folder npm installed them in (the build folder), so the source tree holds no node_modules.
// Besides the script it writes:
// - fonts.css and fonts/: the Noto Serif TC subsets (from @fontsource) holding the glyphs the
//   shipped variants draw on their pieces (`face:` in variants/ and rules/), so the page needs
//   no font from the internet and ships about a megabyte, not the family's 80;
// - figurines.css: the chess figurines chessgroundx ships (Colin M.L. Burnett's set), as CSS
//   variables --fig-KIND-COLOUR the page gives to the kinds that are chess pieces.
import { createRequire } from 'node:module';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const [modules, out] = process.argv.slice(2).map((p) => p && resolve(p));
if (!modules || !out) {
  console.error('usage: node build.mjs NODE_MODULES_DIR OUT_DIR');
  process.exit(2);
}
const require = createRequire(join(modules, 'noop.js'));
const esbuild = require('esbuild');
const here = dirname(fileURLToPath(import.meta.url));
const src = join(here, 'src');

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

// Every YAML file under a folder.
function yamlFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? yamlFiles(path) : name.endsWith('.yaml') ? [path] : [];
  });
}

// The glyphs named by `face:` keys (one glyph, or a list of one per side),
const glyphs = new Set();
for (const file of [...yamlFiles(join(here, '../variants')), ...yamlFiles(join(here, '../rules'))])
  for (const [, value] of readFileSync(file, 'utf8').matchAll(/\bface: *(\[[^\]\n]*\]|[^,}\n]+)/g))
    for (const ch of value.replace(/[[\]\s,'"]/g, '')) glyphs.add(ch.codePointAt(0));

// and the river's words the page writes on a Xiangqi board.
for (const ch of '楚河漢界') glyphs.add(ch.codePointAt(0));

// The @font-face rules of the bold weight whose unicode-range holds one of those glyphs.
const fontDir = join(modules, '@fontsource/noto-serif-tc');
const covers = (range, cp) => range.split(',').some((part) => {
  const [lo, hi = lo] = part.trim().slice(2).split('-').map((h) => parseInt(h, 16));
  return lo <= cp && cp <= hi;
});
rmSync(join(out, 'fonts'), { recursive: true, force: true });
mkdirSync(join(out, 'fonts'));
let fontsCss = '/* Noto Serif TC (SIL Open Font License 1.1), the subsets the shipped pieces use */\n';
for (const [block] of readFileSync(join(fontDir, '700.css'), 'utf8').matchAll(/@font-face\s*{[^}]*}/g)) {
  const range = /unicode-range:\s*([^;]*);/.exec(block)[1];
  if (![...glyphs].some((cp) => covers(range, cp))) continue;
  const file = /url\(\.\/files\/([^)]*\.woff2)\)/.exec(block)[1];
  copyFileSync(join(fontDir, 'files', file), join(out, 'fonts', file));
  fontsCss += block.replace(/src:[^;]*;/, `src: url(fonts/${file}) format('woff2');`) + '\n';
}
copyFileSync(join(fontDir, 'LICENSE'), join(out, 'fonts', 'LICENSE'));
writeFileSync(join(out, 'fonts.css'), fontsCss);

// chessgroundx's cburnett set writes `.cg-wrap piece.pawn.white { background-image: url(...) }`.
const cburnett = readFileSync(join(modules, 'chessgroundx/assets/chessground.cburnett.css'), 'utf8');
let figurines = '/* Chess figurines by Colin M.L. Burnett (GPLv2+), as chessgroundx ships them */\n:root {\n';
for (const [, kind, colour, url] of cburnett.matchAll(/piece\.(\w+)\.(white|black)\s*{\s*background-image:\s*(url\([^)]*\))/g))
  figurines += `  --fig-${kind}-${colour}: ${url};\n`;
writeFileSync(join(out, 'figurines.css'), figurines + '}\n');
