// The board under the pieces, drawn as one SVG for the side at the bottom: points joined by lines
// (Janggi, Xiangqi: the variant lists its palace diagonals), Xiangqi's river (its words are
// the page's, in the shipped font: an SVG image cannot use it), shogi's ruled
// squares, or a chequer; and Palace's coordinates along the left and bottom edges, where the players
// have no numbers of their own (those are the page's, outside the board: app.ts).
import type { State } from '../api';
import type { Family } from './pieces';
import { keyRank, toKey } from './keys';
import { inCoordinates } from '../game/movelist';

const S = 100;  // one square, in SVG units

export function boardSvg(s: State, family: Family, flipped: boolean): string {
  const { files, ranks, diagonals } = s.board;
  // The centre of a point as seen with `flipped` turning the board round.
  const x = (f: number) => ((flipped ? files - 1 - f : f) + 0.5) * S;
  const y = (r: number) => ((flipped ? r : ranks - 1 - r) + 0.5) * S;
  const ink = '#3b2608';
  const line = (x1: number, y1: number, x2: number, y2: number, w = 3) =>
    `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${ink}" stroke-width="${w}" stroke-linecap="square"/>`;
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${files * S} ${ranks * S}">`;
  if (onPoints(s, family)) {
    // Xiangqi's river: the middle of an even board of points, where the files break off.
    const river = riverOf(s, family);
    for (let f = 0; f < files; f++) {
      if (river >= 0 && f > 0 && f < files - 1) {
        svg += line(x(f), y(0), x(f), y(river));
        svg += line(x(f), y(river + 1), x(f), y(ranks - 1));
      } else svg += line(x(f), y(0), x(f), y(ranks - 1));
    }
    for (let r = 0; r < ranks; r++) svg += line(x(0), y(r), x(files - 1), y(r));
    for (const [a, b] of diagonals) {
      const [ka, kb] = [toKey(s.board, a), toKey(s.board, b)];
      svg += line(x(ka.charCodeAt(0) - 97), y(ka.charCodeAt(1) - 49), x(kb.charCodeAt(0) - 97), y(kb.charCodeAt(1) - 49));
    }
  } else if (family === 'shogi') {
    for (let f = 0; f <= files; f++) svg += line(f * S, 0, f * S, ranks * S, f === 0 || f === files ? 6 : 3);
    for (let r = 0; r <= ranks; r++) svg += line(0, r * S, files * S, r * S, r === 0 || r === ranks ? 6 : 3);
  } else {
    for (let f = 0; f < files; f++)
      for (let r = 0; r < ranks; r++)
        if ((f + r) % 2 === 0) svg += `<rect x="${x(f) - S / 2}" y="${y(r) - S / 2}" width="${S}" height="${S}" fill="#b58863"/>`;
  }
  const label = (tx: number, ty: number, text: string, anchor: string) =>
    `<text x="${tx}" y="${ty}" font-size="${S * 0.2}" font-family="sans-serif" font-weight="bold" fill="#5b3d12" fill-opacity="0.85" text-anchor="${anchor}">${text}</text>`;
  if (!playersLabels(s)) {
    for (let f = 0; f < files; f++) svg += label(x(f) + S * 0.46, ranks * S - S * 0.05, String.fromCharCode(97 + f), 'end');
    for (let r = 0; r < ranks; r++) svg += label(S * 0.05, y(r) - S * 0.3, String(keyRank(s.board, r + 1)), 'start');
  }
  return `url("data:image/svg+xml;utf8,${encodeURIComponent(svg + '</svg>')}")`;
}

// Whether the board's edges carry the players' own numbers (shogi's 9-1 and 一-九), not Palace's.
export const playersLabels = (s: State) =>
  !inCoordinates() && s.players_notation.files.length === s.board.files && s.players_notation.ranks.length === s.board.ranks;

// Pieces stand on points joined by lines in the Chinese and Korean games, and wherever the
// variant lists some diagonal lines (a palace) but not all.
const onPoints = (s: State, family: Family) =>
  family === 'janggi' || family === 'xiangqi' || (s.board.diagonals.length > 0 && !s.board.all_diagonals);

// The ranks the river runs between (the lower one), or -1 where the board has none.
export function riverOf(s: State, family: Family): number {
  return onPoints(s, family) && family === 'xiangqi' && s.board.ranks % 2 === 0 ? s.board.ranks / 2 - 1 : -1;
}
