/**
 * Per-key request counting in fixed windows, in this process's memory.
 *
 * A key's window opens with the first request admitted after its previous window ended and
 * lasts `windowMs`; it admits `floor(limit)` requests and refuses the rest until it ends. A
 * refused request leaves the count as it was. Windows are not aligned to the clock, so keys do
 * not all reset at the same instant. The price of a fixed window: a burst straddling the end of
 * one window and the start of the next can reach twice the limit within a short span.
 */
export class RateWindows {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(
    private readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** Counts one request under the limit; 0 when admitted, else the milliseconds until a request can be. */
  take(key: string, limit: number, nowMs: number): number {
    const allowed = Math.floor(limit);
    const open = this.windows.get(key);
    // A clock that moved backwards ends the window too, rather than leave it open for longer.
    if (open && nowMs >= open.startedAt && nowMs - open.startedAt < this.windowMs) {
      if (open.count >= allowed) return open.startedAt + this.windowMs - nowMs;
      open.count += 1;
      return 0;
    }
    if (allowed < 1) return this.windowMs;
    if (!open && this.windows.size >= this.maxKeys) this.dropEnded(nowMs);
    this.windows.set(key, { startedAt: nowMs, count: 1 });
    return 0;
  }

  private dropEnded(nowMs: number): void {
    for (const [key, window] of this.windows) {
      if (nowMs - window.startedAt >= this.windowMs || nowMs < window.startedAt) this.windows.delete(key);
    }
  }
}
