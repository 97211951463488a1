/** A single-line progress display on stderr (rate and ETA); silent when stderr is not a TTY except for the final line. */
export class ProgressLine {
  private readonly started = Date.now();
  private last = 0;

  constructor(
    private readonly total: number | undefined,
    private readonly unit: string,
  ) {}

  update(done: number, extra = ""): void {
    const now = Date.now();
    if (!process.stderr.isTTY || now - this.last < 100) return;
    this.last = now;
    const secs = (now - this.started) / 1000;
    const rate = done / Math.max(secs, 0.001);
    const pct = this.total ? ` ${Math.floor((done / this.total) * 100)}%` : "";
    const eta = this.total && rate > 0 ? ` ETA ${Math.ceil((this.total - done) / rate)}s` : "";
    process.stderr.write(
      `\r${done.toLocaleString("en-US")}${this.total ? `/${this.total.toLocaleString("en-US")}` : ""} ${this.unit}${pct} · ${rate.toFixed(0)}/s${eta}${extra ? ` · ${extra}` : ""}\u001b[K`,
    );
  }

  /** Free-form progress text (throttled, TTY only). */
  text(t: string): void {
    const now = Date.now();
    if (!process.stderr.isTTY || now - this.last < 100) return;
    this.last = now;
    process.stderr.write(`\r${t}\u001b[K`);
  }

  done(): void {
    if (process.stderr.isTTY) process.stderr.write("\r\u001b[K");
  }
}
