import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseDuration } from '../shared/duration.js';
import { isRfc3339Timestamp } from '../shared/timestamps.js';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

function parseOrRefuse<O extends Options>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    // The parser's message runs over several lines; a usage error is one.
    throw new UsageError((err as Error).message.split('\n')[0] ?? 'bad arguments');
  }
}

/**
 * A host-console command's flags and exactly `count` positional arguments (`names` says
 * which, for the message). Any mistake is a one-line UsageError.
 */
export function parseCommandArgs<O extends Options>(args: string[], options: O, count: number, names = '') {
  const parsed = parseOrRefuse(args, options);
  if (parsed.positionals.length !== count) {
    throw new UsageError(`expected ${count} argument(s)${names ? ` ${names}` : ''}, got ${parsed.positionals.length}`);
  }
  return parsed;
}

/** A flag's value that must be given and not blank. */
export function requiredFlag(value: string | boolean | undefined, flag: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`${flag} is required`);
  return value;
}

/**
 * A flag naming a moment: an RFC 3339 time, or a duration (`30d`, `12h`) counted from `now`
 * into the future (`ahead`, an expiry) or the past (`ago`, a window's start).
 */
export function timeFlag(flag: string, value: string, now: Date, direction: 'ahead' | 'ago', examples: string): string {
  if (isRfc3339Timestamp(value)) return new Date(value).toISOString();
  const ms = parseDuration(value);
  if (ms === undefined) {
    throw new UsageError(`${flag} ${JSON.stringify(value)}: give a duration like ${examples} or an RFC 3339 time`);
  }
  return new Date(now.getTime() + (direction === 'ahead' ? ms : -ms)).toISOString();
}
