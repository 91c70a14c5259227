// The move list as the game's players write it (Japanese for shogi, Chinese for Xiangqi, the Korean
// numeric notation for Janggi, the records' own elsewhere), or in coordinates where the player
// chose so; paired by move number, a move clicked shows the position after it.
import type { State } from '../api';

const CoordinatesKey = 'palace.coordinates';

// Whether this browser asked for coordinates instead of the players' notation.
export const inCoordinates = () => localStorage.getItem(CoordinatesKey) === '1';
export function setCoordinates(on: boolean) {
  if (on) localStorage.setItem(CoordinatesKey, '1');
  else localStorage.removeItem(CoordinatesKey);
}

// The game's moves as the list shows them.
export const moveTexts = (s: State) => (inCoordinates() ? s.moves : s.players_notation.moves);

export function drawMoveList(list: HTMLElement, s: State, reviewing: number | undefined, review: (ply: number) => void) {
  const texts = moveTexts(s);
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
  else {
    // The move shown, in sight within the list alone (scrollIntoView would move the page too).
    const current = list.querySelector('.current')?.getBoundingClientRect(), box = list.getBoundingClientRect();
    if (current && (current.top < box.top || current.bottom > box.bottom)) list.scrollTop += current.top - box.top - box.height / 2;
  }
}
