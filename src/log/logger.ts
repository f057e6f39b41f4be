import pino, { type Logger } from 'pino';
import { DEFAULT_LOG_BUFFER_BYTES, stdoutLogOutput } from './log-output.js';

export type { Logger };

/**
 * Field names that may hold a credential anywhere in a logged object. The request logger
 * never logs headers, bodies or query strings in the first place; this list is the second
 * line of defence for anything logged by hand.
 */
const SECRET_KEYS = [
  'cookie',
  'authorization',
  'token',
  'authToken',
  'vendorApiKey',
  'appSecret',
  'verificationToken',
  'encryptKey',
  'password',
  'secret',
];

/**
 * JSON lines to `destination`, by default to stdout through `stdoutLogOutput` (log-output.ts): a
 * reader of stdout that stalls or goes away costs log lines, counted, never the service.
 */
export function createLogger(options: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  const paths = SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);
  return pino(
    {
      level: options.level ?? 'info',
      base: undefined,
      redact: { paths, censor: '[redacted]' },
      serializers: { err: serializeError },
    },
    options.destination ?? stdoutLogOutput({ bufferBytes: DEFAULT_LOG_BUFFER_BYTES }),
  );
}

/**
 * Errors are logged by class, message and a short stack. knex prefixes a driver error's
 * message with the statement and its values inlined; only the driver's own part is kept.
 */
export function serializeError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err };
  const out: Record<string, unknown> = { type: err.name, message: withoutStatement(err.message) };
  if (err.stack)
    out.stack = err.stack
      .split('\n')
      .slice(1, 8)
      .map((line) => line.trim());
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') out.code = code;
  return out;
}

const STATEMENT = /^\s*(insert|select|update|delete|with|create|alter|drop|pragma)\b/i;

export function withoutStatement(message: string): string {
  if (!STATEMENT.test(message)) return message;
  const cut = message.lastIndexOf(' - ');
  return cut === -1 ? 'database error' : message.slice(cut + 3);
}
