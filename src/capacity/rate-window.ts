import type { UnitOfWork } from '../db/unit-of-work.js';
import type { CapacityStore } from './store.js';

/**
 * Counts one request under a limit in fixed windows: 0 when admitted, else the milliseconds
 * until a request can be. Synchronous when the windows are in memory.
 */
export interface RequestWindows {
  take(key: string, limit: number, nowMs: number): number | Promise<number>;
}

/**
 * Per-key request counting in fixed windows, in this process's memory (one process: SQLite,
 * tests).
 *
 * A key's window opens with the first request admitted after its previous window ended and
 * lasts `windowMs`; it admits `floor(limit)` requests and refuses the rest until it ends. A
 * refused request leaves the count as it was. Windows are not aligned to the clock, so keys do
 * not all reset at the same instant. The price of a fixed window: a burst straddling the end of
 * one window and the start of the next can reach twice the limit within a short span.
 */
export class RateWindows implements RequestWindows {
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

  /**
   * Takes back one request counted at `takenAtMs` (a reservation that turned out not to count),
   * as long as the window that counted it is still open; a later window is left as it is.
   */
  giveBack(key: string, takenAtMs: number, nowMs: number): void {
    const open = this.windows.get(key);
    if (!open || open.count === 0 || takenAtMs < open.startedAt) return;
    if (nowMs < open.startedAt || nowMs - open.startedAt >= this.windowMs) return;
    open.count -= 1;
  }

  private dropEnded(nowMs: number): void {
    for (const [key, window] of this.windows) {
      if (nowMs - window.startedAt >= this.windowMs || nowMs < window.startedAt) this.windows.delete(key);
    }
  }
}

/**
 * The same fixed windows kept in the database, so every instance on one PostgreSQL counts
 * against one window per organization: one statement per counted request (an upsert that
 * admits and counts, or refuses and changes nothing, atomically under the row's lock). The
 * window's start is taken from the database's clock, so instances whose clocks disagree still
 * agree on the window; `nowMs` is not used. The count is exact: N instances together admit
 * at most the limit per window.
 */
export class SharedRateWindows implements RequestWindows {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: CapacityStore,
    private readonly windowMs: number,
  ) {}

  take(key: string, limit: number): number | Promise<number> {
    const allowed = Math.floor(limit);
    if (allowed < 1) return this.windowMs;
    return this.store.takeRequest(this.uow.executor, key, allowed, this.windowMs);
  }
}
