// The result, in words, over the panel: who won and why ("Han wins: checkmate", "Black wins:
// white's time ran out"), as the server decided it.
import type { State } from '../api';
import { capital } from '../api';

export function drawBanner(banner: HTMLElement, s: State) {
  banner.hidden = !s.result.finished;
  if (!s.result.finished) return;
  const reason = s.result.reason ? `: ${s.result.reason}` : '';
  const head = s.result.kind === 'win' && s.result.winner ? `${capital(s.result.winner)} wins` : s.result.kind === 'draw' ? 'Draw' : capital(s.result.text);
  banner.textContent = `${head}${reason}.`;
  banner.className = s.result.kind;
}
