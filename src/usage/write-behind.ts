/**
 * Writes that trail the reading: each write starts once the one before it has finished, and
 * `after` returns as soon as it has started, so the caller reads and parses the next batch while
 * the database (SQLite's worker thread, or the PostgreSQL server) stores this one. At most one
 * write is in flight; the first failure is thrown by the next `after` or by `drain`.
 */
export class WriteBehind {
  private inFlight: Promise<void> = Promise.resolve();

  /** Waits for the write in flight, then starts `write` without waiting for it. */
  async after(write: () => Promise<void>): Promise<void> {
    await this.inFlight;
    const started = write();
    // Awaited by the next call or by drain(); until then a failure must not count as unhandled.
    started.catch(() => {});
    this.inFlight = started;
  }

  /** Waits for the write in flight; throws its failure. */
  drain(): Promise<void> {
    return this.inFlight;
  }

  /**
   * Waits for the write in flight, ignoring its failure: for a caller already failing, so its
   * transaction is not rolled back under a statement still running on the connection.
   */
  async settle(): Promise<void> {
    await this.inFlight.catch(() => {});
  }
}
