import type { AddressInfo } from 'node:net';
import http, { type Server } from 'node:http';
import { Writable } from 'node:stream';
import { createServices, type Services } from '../../src/app/services.js';
import { ManualClock } from '../../src/config/clock.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { createApp, type AppOptions } from '../../src/http/app.js';
import { appServerOptions } from '../../src/http/platform/server-objects.js';
import { createLogger } from '../../src/log/logger.js';
import { OutboundClient, type Resolver } from '../../src/outbound/client.js';
import type { OperationId } from '../../src/api/types.js';
import type { OrgRole } from '../../src/orgs/store.js';
import { OrganizationStore } from '../../src/orgs/store.js';
import {
  operationRequest,
  type ApiResult,
  type CallArgs,
  type HttpResult,
  type OrgCallArgs,
  type OrgOperationId,
} from './api-client.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { expectAnswerByContract } from './response-contract.js';

export type { HttpResult };

/**
 * How the test server resolves the names in URLs it calls out to: `localhost` is loopback and no
 * other name resolves, so no test sends a DNS query or a packet beyond this machine.
 */
const loopbackResolver: Resolver = async (hostname) => {
  if (hostname === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`${hostname} is not resolved in tests`), { code: 'ENOTFOUND' });
};

/** How long the test server keeps an idle connection: only a guard, past any test's length. */
const KEEP_ALIVE_GUARD_MS = 600_000;

/** The origin the test server believes it is served from (the CSRF check compares against it). */
export const TEST_ORIGIN = 'http://hub.test';

export interface RequestOptions {
  cookie?: string | undefined;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A call's inputs without their per-operation types, for helpers that fill some in (the org fixture). */
export interface UntypedCallInput extends RequestOptions {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
}

/**
 * The real application on a real database, listening on a loopback port, with every answer
 * checked against openapi.yaml as its bytes arrived. Time is a ManualClock; log lines are kept for inspection.
 */
export class TestHub {
  private constructor(
    /** Every log line the server wrote, as JSON text. */
    readonly logLines: string[],
    readonly services: Services,
    readonly database: TestDatabase,
    readonly clock: ManualClock,
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(options: { config?: Partial<Config>; app?: AppOptions } = {}): Promise<TestHub> {
    const database = await createTestDatabase({ migrated: true });
    const clock = new ManualClock(new Date());
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const config: Config = {
      ...loadConfig({}),
      dataDir: database.dataDir,
      baseUrl: TEST_ORIGIN,
      // Every test calls from 127.0.0.1 on a clock that stands still; the tests of these limits set them.
      signInRatePerMinute: 100_000,
      authFailureRatePerMinute: 100_000,
      ...options.config,
    };
    const logger = createLogger({ level: 'info', destination: sink });
    const outbound = new OutboundClient({ allowPrivate: config.outboundAllowPrivate, resolver: loopbackResolver });
    const services = createServices({ config, db: database.db, readers: database.readers, clock, logger, outbound });
    const app = createApp(services, options.app);
    // Made as `hub serve` makes its server, so every API test runs on the same request objects.
    const server: Server = await new Promise((resolve) => {
      const s = http.createServer(appServerOptions(app), app).listen(0, '127.0.0.1', () => resolve(s));
    });
    // The client (fetch) and this server share one event loop: when a busy machine stalls it past
    // node's 5 s keep-alive, the server may close an idle connection just as fetch reuses it
    // (ECONNRESET). Idle connections stay open until stop(), which closes them all.
    server.keepAliveTimeout = KEEP_ALIVE_GUARD_MS;
    const { port } = server.address() as AddressInfo;
    return new TestHub(lines, services, database, clock, server, `http://127.0.0.1:${port}`);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
    await this.database.drop();
  }

  /**
   * A call of one operation of openapi.yaml, by its operationId: the URL comes from the operation's
   * path template with `input.path` filled in and `input.query` appended; the body is typed as the
   * operation's success body or the error envelope (narrow it with expectOk or expectError).
   */
  call<O extends OperationId>(operationId: O, ...[input]: CallArgs<O>): Promise<ApiResult<O>> {
    return this.untypedCall(operationId, (input ?? {}) as UntypedCallInput) as Promise<ApiResult<O>>;
  }

  /** A `call` of an organization's operation, `orgSlug` filled in, as the caller with this cookie. */
  orgCall<O extends OrgOperationId>(
    orgSlug: string,
    cookie: string | undefined,
    operationId: O,
    ...[input]: OrgCallArgs<O>
  ): Promise<ApiResult<O>> {
    const given = (input ?? {}) as UntypedCallInput;
    return this.untypedCall(operationId, { cookie, ...given, path: { ...given.path, orgSlug } }) as Promise<
      ApiResult<O>
    >;
  }

  /** `call` without the per-operation input types; the typed wrappers build on it. */
  untypedCall(operationId: OperationId, input: UntypedCallInput): Promise<HttpResult> {
    const { method, url } = operationRequest(operationId, input);
    return this.request(method, url, { cookie: input.cookie, body: input.body, headers: input.headers });
  }

  /**
   * A raw request, for what the contract does not describe or forbids (bad JSON, odd headers,
   * invalid bodies); the body is the parsed JSON, or the text when the response is not JSON.
   */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.cookie) headers.cookie = options.cookie;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    if (method !== 'GET' && method !== 'HEAD') headers.origin ??= TEST_ORIGIN;
    if (headers.origin === '') delete headers.origin;
    const response = await fetch(this.url + path, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    expectAnswerByContract(method, path, {
      status: response.status,
      contentType: response.headers.get('content-type'),
      text,
    });
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('application/json') && text) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  /** A fresh one-time login link token for an existing user. */
  async loginToken(imOpenId: string): Promise<string> {
    return (await this.services.sessions.issueLoginLink(imOpenId)).token;
  }

  /** Logs in through GET /auth/login and returns the `Cookie` header value to send. */
  async login(imOpenId: string): Promise<string> {
    const res = await this.call('login', { query: { token: await this.loginToken(imOpenId) } });
    if (res.status !== 303) throw new Error(`login for ${imOpenId} failed: ${res.status} ${res.text}`);
    const setCookie = res.headers.get('set-cookie') ?? '';
    const pair = setCookie.split(';', 1)[0];
    if (!pair?.startsWith('hub_session=')) throw new Error('login set no hub_session cookie');
    return pair;
  }

  /** Creates an organization with its OWNER; returns the org's id and slug. */
  async createOrg(slug: string, ownerImOpenId: string) {
    return this.services.organizations.create({
      slug,
      name: `Org ${slug}`,
      ownerImOpenId,
      ownerDisplayName: `Owner of ${slug}`,
    });
  }

  /**
   * Adds an active member with a role. Seeding goes through the store until the members
   * endpoints exist; the behaviour under test is always exercised over HTTP.
   */
  async addMembership(orgId: string, imOpenId: string, role: OrgRole): Promise<void> {
    const { db, users, clock, orgAccess } = this.services;
    await db.transaction(async (trx) => {
      const user = await users.ensure(trx, { imOpenId }, clock.now());
      await new OrganizationStore().insertMembership(
        trx,
        { organizationId: orgId, userId: user.id, role, profile: { displayName: imOpenId } },
        clock.now(),
      );
    });
    orgAccess.invalidate();
  }
}
