/**
 * How the caches of several processes on one database tell each other that an entry is stale.
 * `publish` resolves once the other processes have been told (for PostgreSQL: the NOTIFY has
 * committed), so a change acknowledged to a client is visible everywhere on the next request.
 */
export interface CacheInvalidations {
  publish(cache: string, key: string | undefined): Promise<void>;
  /** Calls `onStale` with the key (undefined: every entry) whenever another process publishes for `cache`. */
  subscribe(cache: string, onStale: (key: string | undefined) => void): void;
  /**
   * Resolves once the notifications this process has already received are applied. A request
   * and a notification that arrive in the same turn of the event loop may be taken in either
   * order; waiting one turn before trusting a cached entry applies the notification first.
   */
  settle?(): Promise<void>;
}

/** One process alone (SQLite, tests): nobody else to tell. */
export const PROCESS_LOCAL: CacheInvalidations = {
  publish: async () => undefined,
  subscribe: () => undefined,
};

/**
 * A small in-process cache for what every authenticated request repeats: the session behind a
 * cookie, the caller's membership in the addressed organization, its capacity limits. Every
 * write that can take a right away (logout, revoking a member, changing a role, archiving a
 * team) calls `invalidate`, which clears the entry here and, through `CacheInvalidations`
 * (LISTEN/NOTIFY on PostgreSQL), in every other process sharing the database, so such a change
 * holds from the next request on wherever it lands. The TTL is the fallback for a change no
 * notification announced (the host console, a lost listener connection); set it to 0 to
 * disable caching.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; storedAt: number }>();
  /** Bumped by every invalidation, local or remote: a value read before one is not cached after it. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly shared?: { name: string; invalidations: CacheInvalidations },
  ) {
    shared?.invalidations.subscribe(shared.name, (key) => this.forget(key));
  }

  get(key: string, nowMs: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (nowMs - entry.storedAt >= this.ttlMs || nowMs < entry.storedAt) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * `get`, after the notifications already received are applied (PostgreSQL): the read every
   * request's authentication and membership lookup makes, so a change another instance
   * acknowledged is never answered from a stale entry.
   */
  async getSettled(key: string, nowMs: number): Promise<V | undefined> {
    if (this.shared?.invalidations.settle) await this.shared.invalidations.settle();
    return this.get(key, nowMs);
  }

  /**
   * Take this before reading from the database and pass it to `set`, so a read an invalidation overtook is not cached.
   */
  mark(): number {
    return this.generation;
  }

  set(key: string, value: V, nowMs: number, readAt?: number): void {
    if (this.ttlMs <= 0) return;
    if (readAt !== undefined && readAt !== this.generation) return;
    // Dropping the oldest entry keeps memory bounded without an LRU's per-read bookkeeping.
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, storedAt: nowMs });
  }

  /** Forgets the entry in this process only (an entry found expired, say). */
  delete(key: string): void {
    this.forget(key);
  }

  /** Forgets every entry in this process only. */
  clear(): void {
    this.forget(undefined);
  }

  /**
   * Forgets the entry (every entry when `key` is undefined) here and in every process sharing
   * the cache; resolves once the others have been told. Call it after the change committed.
   */
  invalidate(key?: string): Promise<void> {
    this.forget(key);
    return this.shared ? this.shared.invalidations.publish(this.shared.name, key) : Promise.resolve();
  }

  private forget(key: string | undefined): void {
    this.generation += 1;
    if (key === undefined) this.entries.clear();
    else this.entries.delete(key);
  }
}
