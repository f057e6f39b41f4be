import { ApiError } from './api-error.js';

/**
 * Failures of what the service runs on, not of the request: the disk is full, the database is
 * gone or held by another process. Each is answered as what it is, with a status a client can act
 * on (retry later), instead of a 500 that says nothing; the request's transaction was rolled back
 * whole, so nothing of it was written.
 */
export function environmentFault(err: unknown): ApiError | undefined {
  for (let cause = err, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const fault = faultOf(cause);
    if (fault) return fault;
  }
  return undefined;
}

/** 507: the data directory's file system (or PostgreSQL's) has no room left. */
export const storageFull = () =>
  new ApiError(
    507,
    'storage_full',
    'The server is out of storage space, so nothing was written. Try again once space is freed.',
    undefined,
    { 'Retry-After': '60' },
  );

/** 503: PostgreSQL cannot be reached (stopped, restarting, refusing connections). */
export const databaseUnavailable = () =>
  new ApiError(
    503,
    'database_unavailable',
    'The database is not reachable right now, so nothing was written. Try again shortly.',
    undefined,
    { 'Retry-After': '5' },
  );

/** 503: SQLite's write lock stayed held by another process (a backup, a host-console command). */
export const databaseBusy = () =>
  new ApiError(
    503,
    'database_busy',
    'The database is held by another process (a backup or a maintenance command), so nothing ' +
      'was written. Try again shortly.',
    undefined,
    { 'Retry-After': '5' },
  );

/** errno codes of a file system without room: no space, or no quota left. */
const STORAGE_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100']);

/** Node's socket errors on the way to PostgreSQL (the only server the service connects to). */
const UNREACHABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

/**
 * PostgreSQL's own: class 08 (connection exception), the server shutting down or starting up
 * (57P01–57P03), and too many connections (53300).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;

/**
 * The pg driver's messages for a connection lost or not made in time, which carry no code (knex
 * puts the statement before them: `ROLLBACK - Connection terminated unexpectedly`).
 */
const CONNECTION_LOST = new RegExp(
  '(^|- )(Connection terminated|Client has encountered a connection error|Client was closed|timeout expired$|' +
    'timeout exceeded when trying to connect)',
);

function faultOf(err: unknown): ApiError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, name, message } = err as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (STORAGE_FULL_CODES.has(code)) return storageFull();
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return databaseBusy();
    if (UNREACHABLE_SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code)) return databaseUnavailable();
  }
  // knex waited its whole acquire time for a connection: PostgreSQL refused every attempt meanwhile.
  if (name === 'KnexTimeoutError') return databaseUnavailable();
  if (typeof message === 'string' && CONNECTION_LOST.test(message)) return databaseUnavailable();
  return undefined;
}
