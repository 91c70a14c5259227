// The live board of the workshop: the draft's start position, drawn with chessgroundx, on which a
// move may be tried. A tried move is played on a game the server holds (the draft uploaded first),
// so the rules that answer it are the server's own.
import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Color, Key, PiecesDiff, Role } from 'chessgroundx/types';
import type { State } from './api';
import { toKey as boardKey, toPoint as boardPoint } from '../board/keys';

const colours: Color[] = ['white', 'black'];
const roleOf = (letter: string): Role => `${letter.toLowerCase()}-piece` as Role;

// Side colours a variant names that CSS does not know (sente, cho) fall back to light and dark.
function cssColour(colour: string, side: number): string {
  return CSS.supports('color', colour) ? colour : ['#f4f0e6', '#2b2b2b'][side] ?? '#888';
}
function lightness(colour: string): number {
  const probe = document.createElement('span');
  probe.style.color = colour;
  document.body.append(probe);
  const [r, g, b] = (getComputedStyle(probe).color.match(/\d+/g) ?? ['0', '0', '0']).map(Number);
  probe.remove();
  return (r * 299 + g * 587 + b * 114) / 1000;
}

function background(s: State): string {
  const { files, ranks, diagonals, all_diagonals } = s.board;
  const toKey = (point: string) => boardKey(s.board, point);
  const x = (f: number) => ((f + 0.5) * 100) / files;
  const y = (r: number) => ((ranks - r - 0.5) * 100) / ranks;
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" preserveAspectRatio="none">`;
  const line = (x1: number, y1: number, x2: number, y2: number) =>
    `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#4a3010" stroke-width="1" vector-effect="non-scaling-stroke"/>`;
  if (diagonals.length > 0 && !all_diagonals) {
    for (let f = 0; f < files; f++) svg += line(x(f), y(0), x(f), y(ranks - 1));
    for (let r = 0; r < ranks; r++) svg += line(x(0), y(r), x(files - 1), y(r));
    for (const [a, b] of diagonals) {
      const [ka, kb] = [toKey(a), toKey(b)];
      svg += line(x(ka.charCodeAt(0) - 97), y(ka.charCodeAt(1) - 49), x(kb.charCodeAt(0) - 97), y(kb.charCodeAt(1) - 49));
    }
  } else {
    for (let f = 0; f < files; f++)
      for (let r = 0; r < ranks; r++)
        if ((f + r) % 2 === 0)
          svg += `<rect x="${(f * 100) / files}" y="${((ranks - 1 - r) * 100) / ranks}" width="${100 / files}" height="${100 / ranks}" fill="#b58863"/>`;
  }
  return `url("data:image/svg+xml;utf8,${encodeURIComponent(svg + '</svg>')}")`;
}

export class Preview {
  private ground?: Api;
  private shape = '';
  private readonly letters = document.createElement('style');

  // `move` answers a tried move with the position after it, or throws why it was refused.
  constructor(private readonly element: HTMLElement, private readonly move: (move: string) => Promise<void>) {
    document.head.append(this.letters);
  }

  show(s: State) {
    const { files, ranks } = s.board;
    const toKey = (point: string) => boardKey(s.board, point);
    const square = Math.max(24, Math.min(44, Math.floor(400 / Math.max(files, ranks))));
    const shape = `${files}x${ranks}`;
    this.element.style.setProperty('--files', String(files));
    this.element.style.setProperty('--ranks', String(ranks));
    this.element.style.setProperty('--square', `${square}px`);
    s.sides.forEach((side, i) => {
      const colour = cssColour(side.colour, i);
      this.element.style.setProperty(`--side${i}-colour`, colour);
      this.element.style.setProperty(`--side${i}-text`, lightness(colour) > 140 ? '#111' : '#fff');
    });
    this.letters.textContent = s.kinds.map((k) => `#${this.element.id} piece.${roleOf(k.letter)} { --letter: "${k.letter}"; }`).join('\n');
    if (!this.ground || shape !== this.shape) {
      this.shape = shape;
      this.ground?.destroy();
      this.ground = Chessground(this.element, {
        dimensions: { width: files, height: ranks },
        coordinates: false,
        movable: { free: false, showDests: true, events: { after: (orig, dest) => this.tried(s, orig, dest) } },
        draggable: { enabled: true, showGhost: true },
        premovable: { enabled: false },
      });
    }
    (this.element.querySelector('cg-board') as HTMLElement).style.backgroundImage = background(s);
    const pieces: PiecesDiff = new Map();
    for (let f = 0; f < files; f++) for (let r = 1; r <= ranks; r++) pieces.set(toKey(String.fromCharCode(97 + f) + r), undefined);
    for (const p of s.pieces) pieces.set(toKey(p.square), { role: roleOf(p.letter), color: colours[p.side] });
    this.ground.setPieces(pieces);
    const dests = new Map<Key, Key[]>();
    for (const [from, targets] of Object.entries(s.legal)) dests.set(toKey(from), targets.map(toKey));
    this.ground.set({
      turnColor: colours[s.turn],
      lastMove: s.last_move ? s.last_move.filter((p): p is string => p !== null).map(toKey) : undefined,  // a drop has no origin
      check: s.check_square ? [toKey(s.check_square)] : false,
      movable: { color: s.result.finished ? undefined : colours[s.turn], dests, events: { after: (orig, dest) => this.tried(s, orig, dest) } },
    });
  }

  // A promotion tries the first of its choices: the game page is where the picker is.
  private tried(s: State, orig: Key, dest: Key) {
    const prefix = boardPoint(s.board, orig) + boardPoint(s.board, dest);
    const move = s.legal_moves.find((m) => m.startsWith(prefix) && !/[0-9]/.test(m.charAt(prefix.length))) ?? prefix;
    void this.move(move);
  }
}
