import { randomUUID } from 'node:crypto';
import type { Logger } from '../log/logger.js';
import type { CacheInvalidations } from '../shared/ttl-cache.js';
import type { Db } from './connect.js';

/** The one channel every instance listens on; the payload names the cache and the key. */
export const INVALIDATION_CHANNEL = 'hub_cache_invalidation';
const RECONNECT_DELAY_MS = 1_000;
/** How long `publish` waits for its own notification to come back before it resolves anyway. */
const ECHO_TIMEOUT_MS = 1_000;

/** The part of a `pg` client the listener uses (knex hands out the raw driver connection). */
interface ListenerConnection {
  query(sql: string): Promise<unknown>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error' | 'end', listener: (err?: Error) => void): unknown;
  removeAllListeners(): unknown;
}

interface Message {
  /** The publishing instance: it cleared its own cache already and ignores its own message. */
  from: string;
  /** The publisher's sequence number, so it can tell when its own message came back. */
  seq: number;
  cache: string;
  key: string | null;
}

/**
 * Cache invalidation across the `hub serve` processes of one PostgreSQL database, by
 * LISTEN/NOTIFY: `publish` sends `pg_notify` (delivered to the listeners when it commits), and
 * one dedicated connection per process LISTENs and clears the named entry. When that connection
 * drops, every subscribed cache is cleared once it is back (notifications sent meanwhile are
 * lost); until then the caches' TTL bounds what a process can miss.
 */
export class PostgresInvalidations implements CacheInvalidations {
  readonly instanceId = randomUUID();
  private readonly subscribers = new Map<string, Array<(key: string | undefined) => void>>();
  private connection: ListenerConnection | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Notifications received from other instances (for /metrics). */
  received = 0;
  private sequence = 0;
  /** Publications waiting for their own notification to come back, by sequence number. */
  private readonly echoes = new Map<number, () => void>();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  /** Opens the listening connection; resolves once LISTEN is in place. */
  async start(): Promise<void> {
    await this.listen();
  }

  /**
   * Sends the invalidation and, when this process listens too, waits (at most ECHO_TIMEOUT_MS)
   * until the notification comes back to it. PostgreSQL hands a notification to every listener
   * at once, so by then the other instances' connections have it too, ahead of any request a
   * client can send after the answer this publication precedes: "on the next request" holds.
   */
  async publish(cache: string, key: string | undefined): Promise<void> {
    const seq = ++this.sequence;
    const message: Message = { from: this.instanceId, seq, cache, key: key ?? null };
    let echoed: Promise<void> | undefined;
    let timer: NodeJS.Timeout | undefined;
    if (this.connection) {
      echoed = new Promise<void>((resolve) => {
        this.echoes.set(seq, resolve);
        timer = setTimeout(resolve, ECHO_TIMEOUT_MS);
      });
    }
    try {
      await this.db.raw('select pg_notify(?, ?)', [INVALIDATION_CHANNEL, JSON.stringify(message)]);
      await echoed;
    } catch (err) {
      // The change itself committed; the other instances' TTL still bounds the staleness.
      this.logger.warn({ err, cache }, 'could not notify the other instances of a cache invalidation');
    } finally {
      clearTimeout(timer);
      this.echoes.delete(seq);
    }
  }

  subscribe(cache: string, onStale: (key: string | undefined) => void): void {
    this.subscribers.set(cache, [...(this.subscribers.get(cache) ?? []), onStale]);
  }

  /** Whether the listening connection is up (for /readyz and /metrics). */
  get listening(): boolean {
    return this.connection !== undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const connection = this.connection;
    this.connection = undefined;
    if (connection) await this.release(connection);
  }

  private async listen(): Promise<void> {
    const connection = (await this.db.client.acquireRawConnection()) as ListenerConnection;
    connection.on('notification', (message) => {
      if (message.channel === INVALIDATION_CHANNEL && message.payload) this.receive(message.payload);
    });
    const lost = (err?: Error) => {
      if (this.connection !== connection) return;
      this.logger.warn({ err }, 'the cache invalidation listener lost its connection; reconnecting');
      this.connection = undefined;
      void this.release(connection);
      this.reconnectLater();
    };
    connection.on('error', lost);
    connection.on('end', lost);
    try {
      await connection.query(`LISTEN ${INVALIDATION_CHANNEL}`);
    } catch (err) {
      await this.release(connection);
      throw err;
    }
    this.connection = connection;
  }

  private reconnectLater(): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.closed) return;
      this.listen().then(
        () => this.forgetEverything(),
        (err: unknown) => {
          this.logger.warn({ err }, 'the cache invalidation listener could not reconnect; retrying');
          this.reconnectLater();
        },
      );
    }, RECONNECT_DELAY_MS);
    this.reconnectTimer.unref();
  }

  private receive(payload: string): void {
    let message: Message;
    try {
      message = JSON.parse(payload) as Message;
    } catch {
      return;
    }
    if (message.from === this.instanceId) {
      this.echoes.get(message.seq)?.();
      return;
    }
    this.received += 1;
    for (const onStale of this.subscribers.get(message.cache) ?? []) onStale(message.key ?? undefined);
  }

  private forgetEverything(): void {
    for (const list of this.subscribers.values()) for (const onStale of list) onStale(undefined);
  }

  private async release(connection: ListenerConnection): Promise<void> {
    connection.removeAllListeners();
    // An 'error' after removal would otherwise crash the process.
    connection.on('error', () => undefined);
    try {
      await this.db.client.destroyRawConnection(connection);
    } catch {
      // Already gone.
    }
  }
}
