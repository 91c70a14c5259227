// The live board of the workshop: the draft's start position, drawn with chessgroundx, on which a
// move may be tried. A tried move is played on a game the server holds (the draft uploaded first),
// so the rules that answer it are the server's own. Pieces and board are drawn as the game page
// draws them (board/), so a draft looks as its games will.
import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Key, PiecesDiff } from 'chessgroundx/types';
import type { State } from './api';
import { boardSvg } from '../board/drawing';
import { toKey as boardKey, toPoint as boardPoint } from '../board/keys';
import { colours, familyOf, pieceCss, roleOf } from '../board/pieces';

export class Preview {
  private ground?: Api;
  private shape = '';
  private readonly looks = document.createElement('style');

  // `move` answers a tried move with the position after it, or throws why it was refused.
  constructor(private readonly element: HTMLElement, private readonly move: (move: string) => Promise<void>) {
    document.head.append(this.looks);
  }

  show(s: State) {
    const { files, ranks } = s.board;
    const toKey = (point: string) => boardKey(s.board, point);
    const square = Math.max(24, Math.min(44, Math.floor(400 / Math.max(files, ranks))));
    const shape = `${files}x${ranks}`;
    this.element.style.setProperty('--files', String(files));
    this.element.style.setProperty('--ranks', String(ranks));
    this.element.style.setProperty('--square', `${square}px`);
    const family = familyOf(s);
    this.element.dataset.family = family;
    this.looks.textContent = pieceCss(s, family);
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
      // chessgroundx starts from chess's set-up: a board of another size or game starts empty.
      this.ground.state.boardState.pieces.clear();
    }
    (this.element.querySelector('cg-board') as HTMLElement).style.backgroundImage = boardSvg(s, family, false, true);  // the preview has no edges of the players' numbers
    const pieces: PiecesDiff = new Map();
    for (let f = 0; f < files; f++) for (let r = 1; r <= ranks; r++) pieces.set(toKey(String.fromCharCode(97 + f) + r), undefined);
    for (const p of s.pieces) pieces.set(toKey(p.square), { role: roleOf(s, p.kind), color: colours[p.side] });
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
