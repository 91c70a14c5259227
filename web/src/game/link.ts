// The game's address: /game/ID, with ?flip=1 when the board is turned round, so a link or a
// reload brings back the game (and with it its variant) and the orientation.
// The workshop's "Play it" opens `/?game=ID&palace=SIDE`: the same game, the engine playing SIDE.
export function gameFromAddress(): { id?: string; flip: boolean; palace?: string } {
  const found = /^\/game\/([^/]+)$/.exec(location.pathname);
  const query = new URLSearchParams(location.search);
  const id = found ? decodeURIComponent(found[1]) : query.get('game') ?? undefined;
  return { id, flip: query.get('flip') === '1', palace: query.get('palace') ?? undefined };
}

export function setAddress(id: string, flip: boolean) {
  const address = `/game/${encodeURIComponent(id)}${flip ? '?flip=1' : ''}`;
  if (location.pathname + location.search !== address) history.replaceState(null, '', address);
}

// Another tab (or player) may move in the same game: its state is asked for every `ms` while this
// page is seen, and at once when it is shown again.
export function watch(read: () => Promise<void>, ms = 1500) {
  const ask = () => read().catch(() => {});
  window.setInterval(() => {
    if (document.visibilityState === 'visible') void ask();
  }, ms);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void ask();
  });
}
