// How each variant's pieces look, following its players' tradition, decided from what the
// variant says of itself (faces, side colours), so an uploaded variant is drawn alike:
// - faces and blue or green against red: Janggi's octagons in three sizes;
// - faces and other CSS colours: Xiangqi's round pieces;
// - faces and no CSS colours (shogi's sente/gote): wooden pentagons pointing at the opponent,
//   promoted pieces' characters in red;
// - no faces: chess figurines (cburnett, figurines.css) for K Q R B N P, a lettered disc otherwise.
// The page writes one style sheet per variant; a piece is chessgroundx's <piece class="ROLE COLOUR">.
import type { Color, Role } from 'chessgroundx/types';
import type { Kind, Side, State } from '../api';
import { drawnUp } from './keys';

export type Family = 'janggi' | 'xiangqi' | 'shogi' | 'chess';
export const colours: Color[] = ['white', 'black'];

// Each kind its own chessgroundx role, by its place in the list: kinds may share a letter (a
// shogi pawn and its tokin), roles may not.
export function roleOf(s: State, kindName: string): Role {
  const i = s.kinds.findIndex((k) => k.name === kindName);
  return (i < 26 ? `${String.fromCharCode(97 + i)}-piece` : `p${String.fromCharCode(97 + i - 26)}-piece`) as Role;
}
export function kindOfRole(s: State, role: Role): Kind | undefined {
  const i = role.startsWith('p') && role.length === 8 ? 26 + role.charCodeAt(1) - 97 : role.charCodeAt(0) - 97;
  return s.kinds[i];
}

const cssColour = (c: string) => typeof CSS !== 'undefined' && CSS.supports('color', c) && !['sente', 'gote'].includes(c);
// Plain named colours, toned to read as ink on a piece.
const inks: Record<string, string> = { blue: '#1c4fa0', green: '#17703a', red: '#c1201b', black: '#151515', white: '#fafafa' };
export const ink = (c: string) => inks[c] ?? c;

export function familyOf(s: State): Family {
  if (!s.kinds.some((k) => k.face)) return 'chess';
  const named = s.sides.map((side) => side.colour);
  if (!named.every(cssColour)) return 'shogi';
  if (named.some((c) => c === 'blue' || c === 'green')) return 'janggi';
  return 'xiangqi';
}

const figurines: Record<string, string> = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };
const svgUrl = (svg: string) => `url("data:image/svg+xml;utf8,${encodeURIComponent(svg)}")`;

// The shape under a face, in the side's colours.
function shape(family: Family, fill: string, stroke: string): string {
  const open = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">';
  if (family === 'janggi')
    return svgUrl(`${open}<polygon points="30,3 70,3 97,30 97,70 70,97 30,97 3,70 3,30" fill="${fill}" stroke="${stroke}" stroke-width="5"/>` +
      `<polygon points="33,11 67,11 89,33 89,67 67,89 33,89 11,67 11,33" fill="none" stroke="${stroke}" stroke-width="1.5" opacity="0.6"/></svg>`);
  if (family === 'xiangqi')
    return svgUrl(`${open}<circle cx="50" cy="50" r="46" fill="${fill}" stroke="#5a3a16" stroke-width="3"/>` +
      `<circle cx="50" cy="50" r="38" fill="none" stroke="${stroke}" stroke-width="3"/></svg>`);
  if (family === 'shogi')
    return svgUrl(`${open}<polygon points="50,3 84,17 95,97 5,97 16,17" fill="${fill}" stroke="#6b4a1c" stroke-width="3" stroke-linejoin="round"/></svg>`);
  return svgUrl(`${open}<circle cx="50" cy="50" r="44" fill="${fill}" stroke="#333" stroke-width="5"/></svg>`);
}

// How large a piece is against its square: Janggi's general largest, guards and soldiers
// smallest; shogi's by worth.
function sizeOf(family: Family, kind: Kind, face: string): number {
  if (family === 'janggi') return kind.royal ? 0.98 : ['士', '兵', '卒'].includes(face) ? 0.7 : 0.84;
  if (family === 'shogi') return kind.royal ? 0.94 : kind.value >= 8 ? 0.9 : kind.value >= 5 ? 0.86 : 0.8;
  if (family === 'xiangqi') return 0.9;
  return 0.84;
}

// The body and ink of each side's pieces.
export function sideLook(family: Family, sides: Side[], side: number): { fill: string; ink: string } {
  const named = sides[side].colour;
  if (family === 'shogi') return { fill: side === 0 ? '#f6dfa8' : '#dcb46a', ink: '#161616' };
  if (family === 'janggi' || family === 'xiangqi') return { fill: '#f7ecd2', ink: ink(named) };
  const colour = cssColour(named) ? named : side === 0 ? 'white' : 'black';
  const light = ['white', 'yellow', 'ivory'].includes(colour);
  return { fill: ink(colour), ink: light ? '#111' : '#fff' };
}

// The style sheet drawing every kind of the variant for both sides, in hands too.
export function pieceCss(s: State, family: Family): string {
  let css = '';
  s.kinds.forEach((kind) => {
    const role = roleOf(s, kind.name);
    s.sides.forEach((side, i) => {
      const sel = `piece.${role}.${colours[i]}`;
      const look = sideLook(family, s.sides, i);
      const fig = figurines[kind.letter];
      if (family === 'chess' && fig && !kind.written?.startsWith('+')) {
        css += `${sel} { background-image: var(--fig-${fig}-${i === 0 ? 'white' : 'black'}); }\n`;
        return;
      }
      const face = kind.face?.[i] ?? kind.letter;
      const size = sizeOf(family, kind, face);
      const promoted = kind.written?.startsWith('+') ?? false;
      const text = family === 'shogi' && promoted ? '#c1201b' : look.ink;
      const glyphs = [...face].length;
      const font = (family === 'chess' ? 0.5 : glyphs > 1 ? 0.36 : 0.56) * size;
      css += `${sel}::after { content: "${face}"; width: ${size * 100}%; height: ${size * 100}%; ` +
        `background-image: ${shape(family, look.fill, look.ink)}; color: ${text}; font-size: calc(var(--square) * ${font.toFixed(3)}); }\n`;
      // A shogi piece points at the opponent: turned round when its side moves down the screen.
      if (family === 'shogi')
        css += `.orientation-${drawnUp(s.board, side) ? 'black' : 'white'} ${sel}::after { transform: rotate(180deg); }\n`;
    });
  });
  return css;
}
