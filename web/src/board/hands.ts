// Hands: the pieces each side holds off the board, drawn as pieces with their count. A piece is
// dropped by clicking it then a point, or by dragging it onto the board.
import type { Hands, State } from '../api';
import { capital } from '../api';
import { colours, roleOf } from './pieces';

export interface HandPick { kind: string; side: number }

// One side's hand in `box`; `pick` is called on a press on one of its pieces.
export function drawHand(box: HTMLElement, s: State, hands: Hands | undefined, side: number, picked: HandPick | undefined,
  pick: (p: HandPick, e: MouseEvent | TouchEvent) => void) {
  box.replaceChildren();
  if (!hands) return;
  const held = Object.entries(hands[s.sides[side].name] ?? {}).filter(([, n]) => n > 0);
  box.setAttribute('aria-label', `${capital(s.sides[side].name)}'s hand: ${held.map(([k, n]) => `${k} ×${n}`).join(', ') || 'empty'}`);
  for (const [kind, n] of held) {
    const button = document.createElement('button');
    button.className = 'held';
    button.dataset.kind = kind;
    button.dataset.side = String(side);
    button.setAttribute('aria-label', `drop ${s.sides[side].name}'s ${kind} (${n} held)`);
    button.classList.toggle('picked', picked?.kind === kind && picked.side === side);
    const piece = document.createElement('piece');
    piece.className = `${roleOf(s, kind)} ${colours[side]}`;
    const count = Object.assign(document.createElement('span'), { className: 'count', textContent: String(n) });
    button.append(piece, count);
    button.addEventListener('mousedown', (e) => pick({ kind, side }, e));
    button.addEventListener('touchstart', (e) => pick({ kind, side }, e), { passive: false });
    box.append(button);
  }
}
