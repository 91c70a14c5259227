// The promotion picker: over the board at the point reached, inside the screen, one button per
// piece the move may become, and "don't promote" where the piece may stay as it is. Resolves to
// the move's text, or undefined when the player closes it.
import type { State } from '../api';
import { colours, roleOf } from './pieces';

// What a promotion suffix of a move ("q", "+") turns the mover into: the kind written so.
function kindFor(s: State, moverKind: string, suffix: string): string | undefined {
  const mover = s.kinds.find((k) => k.name === moverKind);
  if (suffix === '+') return s.kinds.find((k) => k.written === `+${mover?.letter}`)?.name;
  const upper = suffix.toUpperCase();
  return (s.kinds.find((k) => k.letter === upper && !k.written) ?? s.kinds.find((k) => k.letter === upper))?.name;
}

export function pickPromotion(s: State, board: HTMLElement, prefix: string, choices: string[], at: { x: number; y: number }, side: number,
  moverKind: string): Promise<string | undefined> {
  return new Promise((done) => {
    const picker = document.createElement('div');
    picker.className = 'picker';
    picker.setAttribute('role', 'dialog');
    picker.setAttribute('aria-label', 'Promote to');
    picker.style.left = `${at.x}px`;
    picker.style.top = `${at.y}px`;
    const close = (move?: string) => {
      picker.remove();
      done(move);
    };
    for (const move of choices) {
      const suffix = move.slice(prefix.length);
      const button = document.createElement('button');
      if (suffix === '') {
        button.textContent = "don't promote";
        button.className = 'decline';
      } else {
        const kind = kindFor(s, moverKind, suffix) ?? suffix;
        const piece = document.createElement('piece');
        piece.className = `${roleOf(s, kind)} ${colours[side]}`;
        button.append(piece);
        button.setAttribute('aria-label', `promote to ${kind}`);
        button.dataset.kind = kind;
      }
      button.onclick = () => close(move);
      picker.append(button);
    }
    const cancel = Object.assign(document.createElement('button'), { textContent: '×', className: 'cancel' });
    cancel.setAttribute('aria-label', 'cancel the move');
    cancel.onclick = () => close(undefined);
    picker.append(cancel);
    board.append(picker);
    // Centred on a point by an edge, it would stick out of the screen: moved back inside it.
    const box = picker.getBoundingClientRect(), margin = 4;
    const width = document.documentElement.clientWidth, height = document.documentElement.clientHeight;
    picker.style.left = `${at.x + Math.max(margin - box.left, Math.min(0, width - margin - box.right))}px`;
    picker.style.top = `${at.y + Math.max(margin - box.top, Math.min(0, height - margin - box.bottom))}px`;
    (picker.querySelector('button') as HTMLButtonElement).focus();
  });
}
