/**
 * A small in-process cache for what every authenticated request repeats: the session behind a
 * cookie, the caller's membership in the addressed organization, its capacity limits. Every write that can take
 * a right away (logout, revoking a member, changing a role, archiving a team) clears it in the
 * same process, so such a change holds from the next request on. The TTL bounds how long a
 * change made by another process (the host console, a second server on PostgreSQL) can go
 * unseen; set it to 0 to disable caching.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; storedAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, nowMs: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (nowMs - entry.storedAt >= this.ttlMs || nowMs < entry.storedAt) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, nowMs: number): void {
    if (this.ttlMs <= 0) return;
    // Dropping the oldest entry keeps memory bounded without an LRU's per-read bookkeeping.
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, storedAt: nowMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
