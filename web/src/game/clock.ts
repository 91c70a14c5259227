// Optional clocks, kept by the page: each side's time runs while it is to move; the side whose
// time runs out loses (shown in the banner; the server's game is left as it is).
export class Clocks {
  private left: number[] = [0, 0];
  private running: number | undefined;
  private since = 0;
  private timer: number | undefined;
  minutes = 0;

  constructor(private readonly faces: [HTMLElement, HTMLElement], private readonly flagged: (side: number) => void) {}

  reset(minutes: number) {
    this.minutes = minutes;
    this.left = [minutes * 60_000, minutes * 60_000];
    this.stop();
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
      this.stop();
      this.flagged(side);
    }
    this.draw();
  }

  private stop() {
    if (this.timer !== undefined) window.clearInterval(this.timer);
    this.timer = undefined;
    this.running = undefined;
  }

  private draw() {
    this.faces.forEach((face, side) => {
      face.hidden = !this.minutes;
      const ms = Math.max(0, this.left[side]);
      const s = Math.ceil(ms / 1000);
      face.textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
      face.classList.toggle('running', this.running === side);
    });
  }
}
