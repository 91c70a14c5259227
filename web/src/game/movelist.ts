// The move list in the variant's own notation (SAN, WXF, Janggi numeric, shogi's), paired by move
// number; a move clicked shows the position after it.
import type { State } from '../api';

export function drawMoveList(list: HTMLElement, s: State, reviewing: number | undefined, review: (ply: number) => void) {
  const texts = s.moves_notation ?? s.moves;
  // Who moved first: the side to move now, as many plies back.
  const firstSide = (((s.turn - texts.length) % 2) + 2) % 2;
  const rows: HTMLElement[] = [];
  const cells = firstSide === 1 ? [undefined, ...texts.map((_, i) => i)] : texts.map((_, i) => i);
  for (let i = 0; i < cells.length; i += 2) {
    const row = document.createElement('li');
    row.append(Object.assign(document.createElement('span'), { className: 'number', textContent: `${i / 2 + 1}.` }));
    for (const ply of [cells[i], cells[i + 1]]) {
      if (ply === undefined) {
        row.append(Object.assign(document.createElement('span'), { className: 'move', textContent: i === 0 && firstSide === 1 ? '…' : '' }));
        continue;
      }
      const button = Object.assign(document.createElement('button'), { className: 'move', textContent: texts[ply] });
      button.dataset.ply = String(ply + 1);
      button.setAttribute('aria-label', `move ${i / 2 + 1}, ${s.sides[(firstSide + ply) % 2].name}: ${texts[ply]}; show the position after it`);
      button.classList.toggle('current', reviewing === ply + 1);
      button.onclick = () => review(ply + 1);
      row.append(button);
    }
    rows.push(row);
  }
  list.replaceChildren(...rows);
  if (reviewing === undefined) list.scrollTop = list.scrollHeight;
}
