// The seat this page's address holds: which side it plays (both, one, or none for a spectator),
// the links it may hand on (a seat's to its player, the spectators' to anyone), and the table's
// own acts: resign, and offer, accept or decline a draw.
import type { State } from '../api';
import { capital } from '../api';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

// `engine`: the side Palace plays, whose seat link is not offered; `act` posts to the game.
export function drawSeat(s: State, engine: number | undefined, act: (path: string) => void) {
  const names = s.plays.map(capital);
  $('seat-role').textContent = names.length === 2 ? 'You play both sides.' : names.length === 1 ? `You play ${names[0]}.` : 'You are watching this game.';
  const links = $('seat-links');
  links.replaceChildren();
  // Each side's seat in the sides' order, then the spectators'.
  for (const whose of [...s.sides.map((side) => side.name), 'spectator']) {
    const path = s.links[whose];
    if (!path || (engine !== undefined && whose === s.sides[engine].name)) continue;
    const field = Object.assign(document.createElement('input'), { readOnly: true, value: new URL(path, location.href).href, size: 36 });
    field.dataset.link = whose;
    const copy = Object.assign(document.createElement('button'), { textContent: 'Copy', type: 'button' });
    copy.onclick = () => {
      field.select();
      void navigator.clipboard?.writeText(field.value).catch(() => {});
    };
    const label = document.createElement('label');
    label.append(whose === 'spectator' ? 'Spectators\' link ' : `${capital(whose)}'s seat `, field, copy);
    links.append(label);
  }
  const seated = s.plays.length > 0 && !s.result.finished;
  // Undo and a position set up take both seats: a seat's own page does not offer them.
  $('undo').hidden = $('edit').hidden = s.plays.length < 2;
  $('engine').hidden = s.plays.length === 0;
  const offer = s.draw_offer;
  const answers = offer !== undefined && s.plays.includes(s.sides.find((side) => side.name !== offer)!.name);
  $('table-controls').hidden = !seated;
  $('resign').onclick = () => act('/resign');
  $('draw-offer').hidden = offer !== undefined;
  $('draw-offer').onclick = () => act('/draw/offer');
  $('draw-accept').hidden = !answers;
  $('draw-accept').onclick = () => act('/draw/accept');
  $('draw-decline').hidden = !answers;
  $('draw-decline').onclick = () => act('/draw/decline');
  $('draw-note').textContent = seated && offer ? `${capital(offer)} offers a draw.` : '';
}

// The clock picked for a new game: "300+3" is 5 minutes and 3 s a move, "600/30x3" 10 minutes then
// byo-yomi, three periods of 30 s; "" none.
export function timeControl(value: string): Record<string, number> | undefined {
  const found = /^(\d+)(?:\+(\d+))?(?:\/(\d+)x(\d+))?$/.exec(value);
  if (!found) return undefined;
  const control: Record<string, number> = { initial: Number(found[1]) };
  if (found[2]) control.increment = Number(found[2]);
  if (found[3]) Object.assign(control, { byoyomi: Number(found[3]), periods: Number(found[4]) });
  return control;
}
