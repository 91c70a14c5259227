// The clocks the server keeps (POST /api/games {"clock": ...}): the page only shows them, each by
// its own side of the board, counting down from what the server's last answer said the side to
// move had left, and asks the server again once that reaches zero, as the server alone decides a
// flag. In byo-yomi a clock shows the seconds of the period under way and the periods left.
import type { ClockState } from '../api';

export class Clocks {
  private state: ClockState | undefined;
  private running: number | undefined;
  private received = 0;  // performance.now() when the state came
  private timer: number | undefined;
  private bottom = 0;  // the side whose clock is the lower face
  private asked = false;  // the server was asked once the running clock read zero

  // `faces`: the clock above the board, then the one below; `expired` asks the server for news.
  constructor(private readonly faces: [HTMLElement, HTMLElement], private readonly expired: () => void) {}

  // What the server answered: the clocks, if the game has any, and the running side's index.
  // The time left counts down from when the answer came.
  sync(state: ClockState | undefined, running: number | undefined) {
    if (state && state === this.state) return this.draw();  // the same answer shown again counts on
    this.state = state;
    this.running = state ? running : undefined;
    this.received = performance.now();
    this.asked = false;
    if (this.running !== undefined && this.timer === undefined) this.timer = window.setInterval(() => this.draw(), 200);
    if (this.running === undefined && this.timer !== undefined) {
      window.clearInterval(this.timer);
      this.timer = undefined;
    }
    this.draw();
  }

  // Which side sits at the bottom of the board.
  seat(bottom: number) {
    this.bottom = bottom;
    this.draw();
  }

  private left(side: number): number {
    const base = this.state!.left_ms[side];
    return Math.max(0, side === this.running ? base - (performance.now() - this.received) : base);
  }

  private draw() {
    this.faces.forEach((face, i) => {
      const side = i === 1 ? this.bottom : 1 - this.bottom;
      face.hidden = !this.state;
      face.dataset.side = String(side);
      if (!this.state) return;
      face.textContent = shown(this.left(side), this.state.periods_left[side], this.state.byoyomi_ms);
      face.classList.toggle('running', this.running === side);
    });
    if (this.running !== undefined && this.left(this.running) <= 0 && !this.asked) {
      this.asked = true;
      this.expired();
    }
  }
}

const minutes = (ms: number) => {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

// `ms`: all the time the side has for its move, main time and `stored` periods of `byoyomi` ms.
// Main time while it lasts ("4:59 +3×30s"), then the period under way and the periods left.
function shown(ms: number, stored: number, byoyomi: number): string {
  if (!byoyomi) return minutes(ms);
  const periods = Math.min(stored, Math.ceil(ms / byoyomi));
  const main = ms - periods * byoyomi;
  if (main > 0) return `${minutes(main)} +${periods}×${byoyomi / 1000}s`;
  return `${Math.ceil((ms - (periods - 1) * byoyomi) / 1000)}s (${periods}×)`;
}
