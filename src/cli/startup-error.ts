/** Why `hub serve` (or another command) cannot start: reported as one line naming the cause, exit 1. */
export class StartupError extends Error {}

/**
 * The one-line cause of a failure to open the database, without knex's statement or stack and
 * without the URL's password.
 */
export function databaseStartupError(err: unknown, databaseUrl: string | undefined): StartupError {
  const where = databaseUrl
    ? `the PostgreSQL database ${describeUrl(databaseUrl)} (DATABASE_URL)`
    : 'the SQLite database';
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message.split('\n')[0]!.replace(/^.* - /, '') : String(err);
  if (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'EAI_AGAIN' ||
    code === 'ETIMEDOUT' ||
    /timeout acquiring a connection/i.test(message)
  ) {
    return new StartupError(`cannot reach ${where}: ${message}`);
  }
  return new StartupError(`cannot open ${where}: ${message}`);
}

/** Host, port and database of a PostgreSQL URL, never its user or password. */
export function describeUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return '(unparsable URL)';
  }
}
