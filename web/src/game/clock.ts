// Optional clocks, kept by the page: each side's time runs while it is to move; the side whose
// time runs out loses (shown in the banner; the server's game is left as it is). Each clock sits
// by its own side of the board, and what they show, a time loss included, is kept per game in the
// browser's storage, so a reload takes it back.
interface Kept { minutes: number; left: number[]; loser?: number }

export class Clocks {
  private left: number[] = [0, 0];
  private running: number | undefined;
  private since = 0;
  private timer: number | undefined;
  private bottom = 0;  // the side whose clock is the lower face
  private game = '';
  private loser: number | undefined;
  minutes = 0;

  // `faces`: the clock above the board, then the one below.
  constructor(private readonly faces: [HTMLElement, HTMLElement], private readonly flagged: (side: number) => void) {}

  reset(minutes: number) {
    this.minutes = minutes;
    this.left = [minutes * 60_000, minutes * 60_000];
    this.loser = undefined;
    this.stop();
    this.draw();
  }

  // The game the clocks are for: what was kept for it comes back, and its time loss is returned.
  follow(game: string): number | undefined {
    if (game === this.game) return this.loser;
    this.game = game;
    const kept = localStorage.getItem(storageKey(game));
    if (!kept) {
      this.reset(this.minutes);
      return undefined;
    }
    const k = JSON.parse(kept) as Kept;
    this.reset(k.minutes);
    this.left = k.left;
    this.loser = k.loser;
    this.draw();
    return this.loser;
  }

  // Which side sits at the bottom of the board.
  seat(bottom: number) {
    this.bottom = bottom;
    this.draw();
  }

  // The side to move's clock runs; none when the game is over or clocks are off.
  run(side: number | undefined) {
    if (!this.minutes) return;
    this.settle();
    this.running = side;
    this.since = performance.now();
    if (this.timer === undefined && side !== undefined) this.timer = window.setInterval(() => this.tick(), 200);
    if (side === undefined) this.stop();
    this.draw();
  }

  private settle() {
    if (this.running !== undefined) this.left[this.running] -= performance.now() - this.since;
    this.since = performance.now();
  }

  private tick() {
    this.settle();
    const side = this.running;
    if (side !== undefined && this.left[side] <= 0) {
      this.left[side] = 0;
      this.loser = side;
      this.stop();
      this.keep();
      this.flagged(side);
    }
    this.draw();
  }

  private stop() {
    if (this.timer !== undefined) window.clearInterval(this.timer);
    this.timer = undefined;
    this.running = undefined;
  }

  private keep() {
    if (!this.game || !this.minutes) return;
    const kept: Kept = { minutes: this.minutes, left: this.left, loser: this.loser };
    localStorage.setItem(storageKey(this.game), JSON.stringify(kept));
  }

  private draw() {
    this.keep();
    this.faces.forEach((face, i) => {
      const side = i === 1 ? this.bottom : 1 - this.bottom;
      face.hidden = !this.minutes;
      const ms = Math.max(0, this.left[side]);
      const s = Math.ceil(ms / 1000);
      face.textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
      face.classList.toggle('running', this.running === side);
      face.dataset.side = String(side);
    });
  }
}

const storageKey = (game: string) => `palace-clocks-${game}`;
