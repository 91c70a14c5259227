// The board under the pieces, drawn as one SVG for the side at the bottom: its ground, with the
// board's holes left out (no point there: the page shows through); points joined by lines
// (Janggi, Xiangqi: the variant lists its palace diagonals), Xiangqi's river (its words are
// the page's, in the shipped font: an SVG image cannot use it), shogi's ruled
// squares, or a chequer; and Palace's coordinates along the left and bottom edges of the points
// there are, where the players have no numbers of their own (those are the page's, outside the
// board: app.ts).
import type { State } from '../api';
import type { Family } from './pieces';
import { drawnUp, holeKeys, keyRank, toKey } from './keys';
import { inCoordinates } from '../game/movelist';

const S = 100;  // one square, in SVG units
const Ground: Record<Family, string> = { janggi: '#e8c98f', xiangqi: '#e8c98f', shogi: '#eccb85', chess: '#f0d9b5' };

// The maximal runs [first, last] of indices from 0 to n - 1 that `has`.
function spans(n: number, has: (i: number) => boolean): [number, number][] {
  const found: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    if (!has(i)) continue;
    const first = i;
    while (i + 1 < n && has(i + 1)) i++;
    found.push([first, i]);
  }
  return found;
}

// `coordinates`: Palace's letters and numbers on the board, where the page draws no players' own.
export function boardSvg(s: State, family: Family, flipped: boolean, coordinates = !playersLabels(s)): string {
  const { files, ranks, diagonals } = s.board;
  // The centre of a point as seen with `flipped` turning the board round.
  const x = (f: number) => ((flipped ? files - 1 - f : f) + 0.5) * S;
  const y = (r: number) => ((flipped ? r : ranks - 1 - r) + 0.5) * S;
  // Whether the point of key file f and key rank r (from 0) is there.
  const holes = holeKeys(s.board);
  const there = (f: number, r: number) => f >= 0 && f < files && r >= 0 && r < ranks && !holes.has(String.fromCharCode(97 + f, 49 + r));
  const ink = '#3b2608';
  const line = (x1: number, y1: number, x2: number, y2: number, w = 3) =>
    `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${ink}" stroke-width="${w}" stroke-linecap="square"/>`;
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${files * S} ${ranks * S}">`;
  let ground = `M0 0H${files * S}V${ranks * S}H0Z`;
  for (const key of holes) {
    const [f, r] = [key.charCodeAt(0) - 97, key.charCodeAt(1) - 49];
    ground += `M${x(f) - S / 2} ${y(r) - S / 2}h${S}v${S}h${-S}z`;
  }
  svg += `<path d="${ground}" fill="${Ground[family]}" fill-rule="evenodd"/>`;
  if (onPoints(s, family)) {
    // Xiangqi's river: the middle of an even board of points, where the files break off.
    const river = riverOf(s, family);
    for (let f = 0; f < files; f++) {
      const broken = river >= 0 && f > 0 && f < files - 1;
      for (const [a, b] of spans(ranks - 1, (r) => there(f, r) && there(f, r + 1) && !(broken && r === river))) svg += line(x(f), y(a), x(f), y(b + 1));
    }
    for (let r = 0; r < ranks; r++)
      for (const [a, b] of spans(files - 1, (f) => there(f, r) && there(f + 1, r))) svg += line(x(a), y(r), x(b + 1), y(r));
    for (const [a, b] of diagonals) {
      const [ka, kb] = [toKey(s.board, a), toKey(s.board, b)];
      svg += line(x(ka.charCodeAt(0) - 97), y(ka.charCodeAt(1) - 49), x(kb.charCodeAt(0) - 97), y(kb.charCodeAt(1) - 49));
    }
  } else if (family === 'shogi') {
    // The rules between squares, seen as drawn (column c, row w from the top left): thick where
    // they close the board (a square on one side only).
    const square = (c: number, w: number) => there(flipped ? files - 1 - c : c, flipped ? w : ranks - 1 - w);
    // A rule along n squares, each with the squares on its two sides: drawn where either is there.
    const rule = (n: number, sides: (i: number) => [boolean, boolean], draw: (a: number, b: number, width: number) => string) => {
      for (const width of [3, 6])
        for (const [a, b] of spans(n, (i) => { const [p, q] = sides(i); return (p || q) && (p && q ? 3 : 6) === width; })) svg += draw(a, b, width);
    };
    for (let c = 0; c <= files; c++) rule(ranks, (w) => [square(c - 1, w), square(c, w)], (a, b, t) => line(c * S, a * S, c * S, (b + 1) * S, t));
    for (let w = 0; w <= ranks; w++) rule(files, (c) => [square(c, w - 1), square(c, w)], (a, b, t) => line(a * S, w * S, (b + 1) * S, w * S, t));
  } else {
    for (let f = 0; f < files; f++)
      for (let r = 0; r < ranks; r++)
        if ((f + r) % 2 === 0 && there(f, r)) svg += `<rect x="${x(f) - S / 2}" y="${y(r) - S / 2}" width="${S}" height="${S}" fill="#b58863"/>`;
  }
  const label = (tx: number, ty: number, text: string, anchor: string) =>
    `<text x="${tx}" y="${ty}" font-size="${S * 0.2}" font-family="sans-serif" font-weight="bold" fill="#5b3d12" fill-opacity="0.85" text-anchor="${anchor}">${text}</text>`;
  if (coordinates) {
    // Each file's letter on its lowest point as drawn, each rank's number on its leftmost.
    const index = Array.from({ length: Math.max(files, ranks) }, (_, i) => i);
    for (let f = 0; f < files; f++) {
      const lowest = index.slice(0, ranks).filter((r) => there(f, r)).sort((a, b) => y(b) - y(a))[0];
      if (lowest !== undefined) svg += label(x(f) + S * 0.46, y(lowest) + S * 0.45, String.fromCharCode(97 + f), 'end');
    }
    for (let r = 0; r < ranks; r++) {
      const leftmost = index.slice(0, files).filter((f) => there(f, r)).sort((a, b) => x(a) - x(b))[0];
      if (leftmost !== undefined) svg += label(x(leftmost) - S * 0.45, y(r) - S * 0.3, String(keyRank(s.board, r + 1)), 'start');
    }
  }
  return `url("data:image/svg+xml;utf8,${encodeURIComponent(svg + '</svg>')}")`;
}

// The players' own numbers on the board's edges, as drawn with `flipped` turning the board round:
// a label per column along the top and along the bottom, per row down the right (each list
// empty where that edge has none); undefined where the players' numbers are Palace's, or the
// player asked for coordinates. Shogi and Janggi number the files once, along the top, and the
// ranks; Xiangqi's sides each number the files from their own right along their own edge.
export interface Edges { top: string[]; bottom: string[]; right: string[] }
export function playersEdges(s: State, flipped: boolean): Edges | undefined {
  const { files, ranks } = s.board;
  const { files: fileLabels, ranks: rankLabels, side_files: bySide } = s.players_notation;
  if (inCoordinates()) return undefined;
  const columns = (labels: string[]) => Array.from({ length: files }, (_, c) => labels[flipped ? files - 1 - c : c]);
  if (bySide.length === s.sides.length && bySide.every((labels) => labels.length === files)) {
    const bottom = Math.max(0, s.sides.findIndex((side) => drawnUp(s.board, side) !== flipped));
    return { top: columns(bySide[1 - bottom]), bottom: columns(bySide[bottom]), right: [] };
  }
  if (fileLabels.length !== files || rankLabels.length !== ranks) return undefined;
  // Row `w` from the top shows key rank `flipped ? w : ranks - 1 - w` (from 0), as boardSvg's y().
  const rows = Array.from({ length: ranks }, (_, w) => rankLabels[keyRank(s.board, (flipped ? w : ranks - 1 - w) + 1) - 1]);
  return { top: columns(fileLabels), bottom: [], right: rows };
}

// Whether the board's edges carry the players' own numbers (shogi's 9-1 and 一-九), not Palace's.
export const playersLabels = (s: State) => playersEdges(s, false) !== undefined;

// Pieces stand on points joined by lines in the Chinese and Korean games, and wherever the
// variant lists some diagonal lines (a palace) but not all.
const onPoints = (s: State, family: Family) =>
  family === 'janggi' || family === 'xiangqi' || (s.board.diagonals.length > 0 && !s.board.all_diagonals);

// The ranks the river runs between (the lower one), or -1 where the board has none.
export function riverOf(s: State, family: Family): number {
  return onPoints(s, family) && family === 'xiangqi' && s.board.ranks % 2 === 0 ? s.board.ranks / 2 - 1 : -1;
}
