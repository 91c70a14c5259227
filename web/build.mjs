// Bundles the board page, the variant workshop and the balance report's plots (report.js, which
// `palace balance --report` copies beside its page): node build.mjs NODE_MODULES_DIR OUT_DIR. The packages come from the
// folder npm installed them in (the build folder), so the source tree holds no node_modules.
// Besides the script it writes:
// - fonts.css and fonts/: the Noto Serif TC and JP subsets (from @fontsource) whose files draw the
//   glyphs the shipped variants put on their pieces (`face:` in variants/ and rules/), so the page
//   needs no font from the internet and ships about a megabyte, not the families' 175;
// - figurines.css: the chess figurines chessgroundx ships (Colin M.L. Burnett's set), as CSS
//   variables --fig-KIND-COLOUR the page gives to the kinds that are chess pieces.
import { createRequire } from 'node:module';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drawnCodePoints } from './woff2_cmap.mjs';

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
  entryPoints: { app: join(src, 'app.ts'), workshop: join(src, 'workshop/main.ts'), report: join(src, 'report/report.ts') },
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

// and the river's words the page writes on a Xiangqi board, and the characters of the players'
// notations in the move list and on the board's edges (interpreter/notation/players_notation.h):
// Japanese (☗７六歩(77), 同, 成, 不成, 打, ranks 一 to 九) and Chinese (前炮進一, 後, 中, 平, 退).
for (const ch of '楚河漢界☗☖一二三四五六七八九同成不打進退平前後中１２３４５６７８９') glyphs.add(ch.codePointAt(0));

// For each glyph, the first @font-face rule of the bold weight, Noto Serif TC's then JP's (for
// shogi's Japanese forms, such as 歩 and 鶏, which the TC font lacks), whose file draws it.
const fonts = ['noto-serif-tc', 'noto-serif-jp'].map((name) => join(modules, '@fontsource', name));
const rules = fonts.flatMap((dir) => [...readFileSync(join(dir, '700.css'), 'utf8').matchAll(/@font-face\s*{[^}]*}/g)].map(([block]) => {
  const file = /url\(\.\/files\/([^)]*\.woff2)\)/.exec(block)[1];
  return { dir, block, file, drawn: null };
}));
const chosen = new Set();
for (const cp of glyphs) {
  const rule = rules.find((r) => (r.drawn ??= drawnCodePoints(join(r.dir, 'files', r.file))).has(cp));
  if (!rule) throw new Error(`no shipped font draws ${String.fromCodePoint(cp)} (U+${cp.toString(16).toUpperCase()}), a face: of the variants`);
  chosen.add(rule);
}
rmSync(join(out, 'fonts'), { recursive: true, force: true });
mkdirSync(join(out, 'fonts'));
let fontsCss = '/* Noto Serif TC and JP (SIL Open Font License 1.1), the subsets the shipped pieces use */\n';
for (const rule of rules.filter((r) => chosen.has(r))) {
  copyFileSync(join(rule.dir, 'files', rule.file), join(out, 'fonts', rule.file));
  fontsCss += rule.block.replace(/src:[^;]*;/, `src: url(fonts/${rule.file}) format('woff2');`) + '\n';
}
copyFileSync(join(fonts[0], 'LICENSE'), join(out, 'fonts', 'LICENSE'));  // the same OFL text for both
writeFileSync(join(out, 'fonts.css'), fontsCss);

// chessgroundx's cburnett set writes `.cg-wrap piece.pawn.white { background-image: url(...) }`.
const cburnett = readFileSync(join(modules, 'chessgroundx/assets/chessground.cburnett.css'), 'utf8');
let figurines = '/* Chess figurines by Colin M.L. Burnett (GPLv2+), as chessgroundx ships them */\n:root {\n';
for (const [, kind, colour, url] of cburnett.matchAll(/piece\.(\w+)\.(white|black)\s*{\s*background-image:\s*(url\([^)]*\))/g))
  figurines += `  --fig-${kind}-${colour}: ${url};\n`;
writeFileSync(join(out, 'figurines.css'), figurines + '}\n');
