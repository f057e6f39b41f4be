import { randomUUID } from 'node:crypto';
import type { Logger } from '../log/logger.js';
import type { CacheInvalidations } from '../shared/ttl-cache.js';
import type { Db } from './connect.js';

/** The one channel every instance listens on; the payload names the cache and the key. */
export const INVALIDATION_CHANNEL = 'hub_cache_invalidation';
const RECONNECT_DELAY_MS = 1_000;
/** How long `publish` waits for the other instances' acknowledgements before it resolves anyway. */
const ACK_TIMEOUT_MS = 2_000;
/** The listener connections' `application_name`: how an instance counts the others listening. */
const LISTENER_NAME = 'hub-invalidation-listener';

/** The part of a `pg` client the listener uses (knex hands out the raw driver connection). */
interface ListenerConnection {
  query(sql: string): Promise<{ rows: Array<Record<string, unknown>> }>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error' | 'end', listener: (err?: Error) => void): unknown;
  removeAllListeners(): unknown;
}

/** An invalidation, or a listener's acknowledgement that it applied one. */
type Message =
  | {
      type: 'stale';
      /** The publishing instance: it cleared its own cache already and ignores its own message. */
      from: string;
      /** The publisher's sequence number, which the acknowledgements name. */
      seq: number;
      cache: string;
      key: string | null;
    }
  | { type: 'ack'; from: string; to: string; seq: number };

/**
 * Cache invalidation across the `hub serve` processes of one PostgreSQL database, by
 * LISTEN/NOTIFY: `publish` sends `pg_notify` (delivered to the listeners when it commits), and
 * one dedicated connection per process LISTENs, clears the named entry and acknowledges on the
 * same channel. The publisher waits for the acknowledgement of every other instance listening
 * (counted by the listener connections' `application_name` in `pg_stat_activity`, so the
 * instances must connect directly or through a session-mode pooler), so once a change is
 * acknowledged to its client, every instance has applied it. When a listener connection drops,
 * every subscribed cache is cleared once it is back (notifications sent meanwhile are lost);
 * until then the caches' TTL bounds what a process can miss.
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
  /** The listener connection's server process, left out when counting the other instances. */
  private listenerPid: number | undefined;
  /** Publications waiting for acknowledgements, by sequence number. */
  private readonly awaiting = new Map<number, { remaining: number; done: () => void }>();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  /** Opens the listening connection; resolves once LISTEN is in place. */
  async start(): Promise<void> {
    await this.listen();
  }

  /**
   * Sends the invalidation and, when this process listens (a server), waits until every other
   * instance listening has acknowledged that it applied it, at most ACK_TIMEOUT_MS: a change is
   * then visible on every instance before its client hears of it, so "from the next request"
   * holds wherever that request lands. A host-console command only sends.
   */
  async publish(cache: string, key: string | undefined): Promise<void> {
    const seq = ++this.sequence;
    const message: Message = { type: 'stale', from: this.instanceId, seq, cache, key: key ?? null };
    let timer: NodeJS.Timeout | undefined;
    try {
      let acknowledged: Promise<void> | undefined;
      const peers = this.connection ? await this.countPeers() : 0;
      if (peers > 0) {
        acknowledged = new Promise<void>((resolve) => {
          this.awaiting.set(seq, { remaining: peers, done: resolve });
          timer = setTimeout(() => {
            this.logger.warn(
              { cache, peers, missing: this.awaiting.get(seq)?.remaining },
              'not every instance acknowledged a cache invalidation in time',
            );
            resolve();
          }, ACK_TIMEOUT_MS);
        });
      }
      await this.db.raw('select pg_notify(?, ?)', [INVALIDATION_CHANNEL, JSON.stringify(message)]);
      await acknowledged;
    } catch (err) {
      // The change itself committed; the other instances' TTL still bounds the staleness.
      this.logger.warn({ err, cache }, 'could not notify the other instances of a cache invalidation');
    } finally {
      clearTimeout(timer);
      this.awaiting.delete(seq);
    }
  }

  /** The other instances' listener connections on this database. */
  private async countPeers(): Promise<number> {
    const row = (await this.db
      .raw(
        'select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = ' +
          '? and pid <> ?',
        [LISTENER_NAME, this.listenerPid ?? 0],
      )
      .then((result: { rows: Array<{ n: number }> }) => result.rows[0])) ?? { n: 0 };
    return row.n;
  }

  /** One turn of the event loop: notifications read from the listener's socket in this turn are applied by then. */
  settle(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
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
      await connection.query(`SET application_name = '${LISTENER_NAME}'`);
      const { rows } = await connection.query('select pg_backend_pid() as pid');
      this.listenerPid = Number(rows[0]?.pid);
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
    if (message.type === 'ack') {
      if (message.to !== this.instanceId) return;
      const waiting = this.awaiting.get(message.seq);
      if (waiting && --waiting.remaining <= 0) waiting.done();
      return;
    }
    if (message.type !== 'stale' || message.from === this.instanceId) return;
    this.received += 1;
    for (const onStale of this.subscribers.get(message.cache) ?? []) onStale(message.key ?? undefined);
    const ack: Message = { type: 'ack', from: this.instanceId, to: message.from, seq: message.seq };
    this.db.raw('select pg_notify(?, ?)', [INVALIDATION_CHANNEL, JSON.stringify(ack)]).catch((err: unknown) => {
      this.logger.warn({ err }, 'could not acknowledge a cache invalidation');
    });
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
