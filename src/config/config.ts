import path from 'node:path';
import type { DimensionValues } from '../capacity/dimensions.js';
import { parseCeilings } from './ceilings.js';
import { DEFAULT_LOG_BUFFER_BYTES } from '../log/log-output.js';
import { DAY_MS, HOUR_MS, MINUTE_MS } from './clock.js';
import { ConfigError } from './config-error.js';
import { parseMasterKeyVariables, type MasterKeys } from './master-keys.js';
import { parseModels, type AgentModel } from './models.js';
import { parseTrustedProxies } from './trusted-proxies.js';
import { parseDnsServers } from './dns-servers.js';

/**
 * Everything the service and the host console read from the environment, parsed and checked
 * once at start-up. This folder is the only place that reads `process.env`.
 */
export interface Config {
  port: number;
  /** The address `hub serve` listens on: `HOST`, loopback unless exposed on purpose (`0.0.0.0`). */
  host: string;
  dataDir: string;
  /** `postgres://…` selects PostgreSQL; undefined means the SQLite file in the data directory. */
  databaseUrl: string | undefined;
  /** Origin used in login links and by the CSRF check, without a trailing slash. */
  baseUrl: string;
  /** True when `HUB_BASE_URL` set `baseUrl`; otherwise it follows `HOST` and the port the server listens on. */
  baseUrlFromEnvironment: boolean;
  /** Largest JSON request body the server parses, in bytes. */
  bodyLimitBytes: number;
  /** One of pino's levels (LOG_LEVELS); anything else stops start-up naming `LOG_LEVEL`. */
  logLevel: string;
  /**
   * How long `hub serve` waits for in-flight requests on SIGTERM/SIGINT before it exits anyway
   * (`HUB_SHUTDOWN_GRACE_MS`).
   */
  shutdownGraceMs: number;
  /**
   * How long a request waits for the database before it is answered 503 (`HUB_DB_WAIT_MS`): for a
   * PostgreSQL connection (`database_unavailable`), or for SQLite's write lock held by another
   * process (`database_busy`).
   */
  dbWaitMs: number;
  /** Bytes of log lines that may wait for a stalled reader of stdout before lines are dropped. */
  logBufferBytes: number;
  /**
   * Platform ceilings set by `HUB_CEILING_<DIMENSION>`; a dimension left out takes its built-in
   * ceiling, never none (`platformCeilings` in src/capacity/ceilings.ts).
   */
  ceilings: DimensionValues;
  /** The model picker (`/agent-models`) from `HUB_MODELS`, or the built-in list (src/config/models.ts). */
  models: readonly AgentModel[];
  /** `HUB_MASTER_KEYS` / `HUB_ACTIVE_KEY_ID`; undefined means the key file in the data directory. */
  masterKeys: MasterKeys | undefined;
  /**
   * `hub connection platform` only: the provider credentials to seal, from
   * `HUB_PROVIDER_AUTH_TOKEN` and `HUB_PROVIDER_VENDOR_API_KEY` (else the command reads stdin).
   */
  platformProvider: { authToken: string | undefined; vendorApiKey: string | undefined };
  /**
   * `HUB_TRUSTED_PROXIES`: proxies whose `X-Forwarded-For` hop is skipped when finding a request's
   * client address (addresses or CIDR blocks); empty: the socket's address is the client's.
   */
  trustedProxies: string[];
  /**
   * `HUB_OUTBOUND_ALLOW_PRIVATE=1`: identity providers and webhook receivers may be reached over
   * plain http, and webhooks may be sent to loopback and private addresses (tests, on-premise
   * receivers); otherwise only https to public addresses (src/outbound/).
   */
  outboundAllowPrivate: boolean;
  /**
   * `HUB_DNS_SERVERS`: the DNS servers (`host:port`) a domain's verification record is looked up
   * at; empty: the system resolver's (src/config/dns-servers.ts).
   */
  dnsServers: string[];
  /**
   * `HUB_LOGIN_LINKS`: whether `hub login-link` issues one-time links (`on`, the default, for the
   * demo), only audited break-glass ones (`break-glass`), or none (`off`).
   */
  loginLinks: LoginLinkMode;
  /** How the webhook dispatcher retries and claims deliveries (src/webhooks/dispatcher.ts). */
  webhookDelivery: WebhookDeliverySettings;
  /** Sign-in attempts (starts and callbacks) one client address may make per minute (`HUB_SIGNIN_RATE`). */
  signInRatePerMinute: number;
  /**
   * Failed credentials (login links that did not log in, API tokens refused) one client address
   * may present per minute (`HUB_AUTH_FAILURE_RATE`); beyond, 429 until the minute is over.
   */
  authFailureRatePerMinute: number;
  /**
   * Slow clients (`HUB_HEADERS_TIMEOUT_MS`, `HUB_REQUEST_TIMEOUT_MS`): a connection that has not
   * sent its request's headers, or its whole request, within these is answered 408 and closed.
   */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests (`HUB_KEEP_ALIVE_TIMEOUT_MS`). */
  keepAliveTimeoutMs: number;
  /** Connections `hub serve` holds open at once; more are closed as they arrive (`HUB_MAX_CONNECTIONS`). */
  maxConnections: number;
  /** `hub identity-provider set` only: the client secret to seal (`HUB_IDP_CLIENT_SECRET`, else stdin). */
  identityProviderSecret: string | undefined;
}

/**
 * The webhook dispatcher's timing. The defaults are docs/decisions.md's ("Webhooks"); tests shorten them through the
 * environment (`hub serve` subprocesses) so that retries and expired leases come within seconds.
 */
export interface WebhookDeliverySettings {
  /**
   * The wait before each retry, in order; after the last retry fails the delivery is `failed`
   * (`HUB_WEBHOOK_RETRY_DELAYS_MS`).
   */
  retryDelaysMs: number[];
  /**
   * How long a claimed delivery belongs to the instance that claimed it (`HUB_WEBHOOK_LEASE_MS`): an
   * instance that dies mid-send leaves it to another once this has passed. Longer than a call may take.
   */
  leaseMs: number;
  /** How often an idle dispatcher looks for due deliveries (`HUB_WEBHOOK_POLL_MS`). */
  pollMs: number;
}

const DEFAULT_RETRY_DELAYS_MS = [30_000, 5 * MINUTE_MS, 30 * MINUTE_MS, 2 * HOUR_MS, 8 * HOUR_MS, DAY_MS];
/** Well beyond the outbound client's whole-call deadline, so a slow receiver never loses its lease. */
const DEFAULT_WEBHOOK_LEASE_MS = 2 * MINUTE_MS;
const DEFAULT_WEBHOOK_POLL_MS = 1_000;

const DEFAULT_PORT = 8080;
const DEFAULT_HOST = '127.0.0.1';
/** Long enough for any API request (skill installs included), short of a typical orchestrator's kill timeout (30 s). */
const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/** Long enough for any write the app or the host console makes; short enough that a client is told. */
export const DEFAULT_DB_WAIT_MS = 5_000;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** Skill installs carry whole directories as JSON, so the default is well above a typical API body. */
const DEFAULT_BODY_LIMIT = 8 * 1024 * 1024;
/** A person signs in a few times a day; a flood from one address is somebody guessing or probing. */
const DEFAULT_SIGNIN_RATE = 30;
/** Enough for a person's browser on a slow network; a socket dribbling its headers longer is holding a slot. */
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** The largest body (a skill install) arrives well within it on any working connection. */
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** node:http's own; shorter than the idle timeout of the usual load balancers is their side's job. */
const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Far above what one instance serves at once, far below the file descriptors a process may open. */
const DEFAULT_MAX_CONNECTIONS = 4_096;
/** A person mistypes or reuses a link now and then; many failures a minute from one address are guesses. */
const DEFAULT_AUTH_FAILURE_RATE = 30;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = parseInteger(env.PORT, 'PORT', DEFAULT_PORT, 0, 65535);
  const host = parseHost(env.HOST);
  const explicitBaseUrl = env.HUB_BASE_URL?.trim() || undefined;
  const baseUrl = parseBaseUrl(explicitBaseUrl ?? defaultBaseUrl(host, port));
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL (leave it unset for SQLite)');
  }
  const bodyLimitBytes = parseInteger(env.HUB_BODY_LIMIT, 'HUB_BODY_LIMIT', DEFAULT_BODY_LIMIT, 1024, 1024 ** 3);
  return {
    port,
    host,
    dataDir: path.resolve(env.HUB_DATA_DIR?.trim() || './data'),
    databaseUrl,
    baseUrl,
    baseUrlFromEnvironment: explicitBaseUrl !== undefined,
    bodyLimitBytes,
    logLevel: parseLogLevel(env.LOG_LEVEL),
    shutdownGraceMs: parseInteger(
      env.HUB_SHUTDOWN_GRACE_MS,
      'HUB_SHUTDOWN_GRACE_MS',
      DEFAULT_SHUTDOWN_GRACE_MS,
      0,
      600_000,
    ),
    dbWaitMs: parseInteger(env.HUB_DB_WAIT_MS, 'HUB_DB_WAIT_MS', DEFAULT_DB_WAIT_MS, 100, 600_000),
    logBufferBytes: parseInteger(
      env.HUB_LOG_BUFFER_BYTES,
      'HUB_LOG_BUFFER_BYTES',
      DEFAULT_LOG_BUFFER_BYTES,
      0,
      1024 ** 3,
    ),
    ceilings: parseCeilings(env, bodyLimitBytes),
    models: parseModels(env.HUB_MODELS),
    masterKeys: parseMasterKeyVariables(
      env.HUB_MASTER_KEYS?.trim() || undefined,
      env.HUB_ACTIVE_KEY_ID?.trim() || undefined,
    ),
    platformProvider: {
      authToken: env.HUB_PROVIDER_AUTH_TOKEN || undefined,
      vendorApiKey: env.HUB_PROVIDER_VENDOR_API_KEY || undefined,
    },
    trustedProxies: parseTrustedProxies(env.HUB_TRUSTED_PROXIES),
    outboundAllowPrivate: parseFlag(env.HUB_OUTBOUND_ALLOW_PRIVATE, 'HUB_OUTBOUND_ALLOW_PRIVATE'),
    dnsServers: parseDnsServers(env.HUB_DNS_SERVERS),
    loginLinks: parseLoginLinks(env.HUB_LOGIN_LINKS),
    webhookDelivery: {
      retryDelaysMs: parseDelays(env.HUB_WEBHOOK_RETRY_DELAYS_MS, 'HUB_WEBHOOK_RETRY_DELAYS_MS'),
      leaseMs: parseInteger(env.HUB_WEBHOOK_LEASE_MS, 'HUB_WEBHOOK_LEASE_MS', DEFAULT_WEBHOOK_LEASE_MS, 100, DAY_MS),
      pollMs: parseInteger(env.HUB_WEBHOOK_POLL_MS, 'HUB_WEBHOOK_POLL_MS', DEFAULT_WEBHOOK_POLL_MS, 10, MINUTE_MS),
    },
    signInRatePerMinute: parseInteger(env.HUB_SIGNIN_RATE, 'HUB_SIGNIN_RATE', DEFAULT_SIGNIN_RATE, 1, 100_000),
    authFailureRatePerMinute: parseInteger(
      env.HUB_AUTH_FAILURE_RATE,
      'HUB_AUTH_FAILURE_RATE',
      DEFAULT_AUTH_FAILURE_RATE,
      1,
      100_000,
    ),
    identityProviderSecret: env.HUB_IDP_CLIENT_SECRET || undefined,
    ...parseConnectionLimits(env),
  };
}

/** The slow-client timeouts and the connection cap; the request timeout may not be the shorter. */
function parseConnectionLimits(
  env: NodeJS.ProcessEnv,
): Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'maxConnections'> {
  const ms = (name: string, fallback: number) => parseInteger(env[name], name, fallback, 100, 3_600_000);
  const headersTimeoutMs = ms('HUB_HEADERS_TIMEOUT_MS', DEFAULT_HEADERS_TIMEOUT_MS);
  const requestTimeoutMs = ms('HUB_REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS);
  if (requestTimeoutMs < headersTimeoutMs) {
    throw new ConfigError(
      `HUB_REQUEST_TIMEOUT_MS (${requestTimeoutMs}) must not be shorter than ` +
        `HUB_HEADERS_TIMEOUT_MS (${headersTimeoutMs})`,
    );
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: ms('HUB_KEEP_ALIVE_TIMEOUT_MS', DEFAULT_KEEP_ALIVE_TIMEOUT_MS),
    maxConnections: parseInteger(env.HUB_MAX_CONNECTIONS, 'HUB_MAX_CONNECTIONS', DEFAULT_MAX_CONNECTIONS, 1, 1_000_000),
  };
}

/** A comma-separated list of whole milliseconds, each from 1 ms to a day; unset: the decided schedule. */
function parseDelays(raw: string | undefined, name: string): number[] {
  if (raw === undefined || raw.trim() === '') return DEFAULT_RETRY_DELAYS_MS;
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.length > 20 || parts.some((part) => !/^\d+$/.test(part) || Number(part) < 1 || Number(part) > DAY_MS)) {
    throw new ConfigError(`${name} must be up to 20 comma-separated whole milliseconds (1 to ${DAY_MS}), got "${raw}"`);
  }
  return parts.map(Number);
}

export const LOGIN_LINK_MODES = ['on', 'break-glass', 'off'] as const;
export type LoginLinkMode = (typeof LOGIN_LINK_MODES)[number];

function parseLoginLinks(raw: string | undefined): LoginLinkMode {
  const value = raw?.trim() ?? '';
  if (value === '') return 'on';
  if ((LOGIN_LINK_MODES as readonly string[]).includes(value)) return value as LoginLinkMode;
  throw new ConfigError(`HUB_LOGIN_LINKS must be on, break-glass or off, got "${raw}"`);
}

function parseFlag(raw: string | undefined, name: string): boolean {
  const value = raw?.trim() ?? '';
  if (value === '' || value === '0') return false;
  if (value === '1') return true;
  throw new ConfigError(`${name} must be 1 or 0, got "${raw}"`);
}

function parseInteger(raw: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function parseHost(raw: string | undefined): string {
  const host = raw?.trim() || DEFAULT_HOST;
  // An IPv4/IPv6 address or a host name; no scheme, port or path.
  if (!/^[A-Za-z0-9.:-]+$/.test(host) || host.startsWith('-')) {
    throw new ConfigError(`HOST must be an address to listen on such as 127.0.0.1 or 0.0.0.0, got "${raw}"`);
  }
  return host;
}

function parseLogLevel(raw: string | undefined): string {
  const level = raw?.trim() || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  }
  return level;
}

/**
 * The base URL when `HUB_BASE_URL` sets none: the address `hub serve` listens on, as a browser
 * on this machine reaches it; `localhost` for a wildcard HOST (`0.0.0.0`, `::`), which is no
 * address a browser can open.
 */
export function defaultBaseUrl(host: string, port: number): string {
  const name = WILDCARD_HOSTS.has(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::']);

function parseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`HUB_BASE_URL must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`HUB_BASE_URL must use http or https, got "${url.protocol}"`);
  }
  return url.origin;
}
