import type { Request } from 'express';
import { badRequestAt, type ErrorDetail } from '../../errors/api-error.js';
import { isStorableText, UNSTORABLE_TEXT } from '../../shared/text.js';
import type { Stage } from './stage.js';

/**
 * 400 `validation_failed` for a path parameter or query value no text may hold: U+0000, which
 * PostgreSQL's text type refuses (the parameter would reach SQL as soon as the organization is
 * resolved), or a lone surrogate; and for a query string whose percent-encoding does not decode
 * to UTF-8 (`%FF`, `%E0%A4%A`, or `%ED%A0%80`, the only way to send a lone surrogate), which the
 * query parser would otherwise repair to U+FFFD without a word. A path that does not decode
 * never reaches this stage: the router refuses it while matching (see the error middleware).
 *
 * It runs right after authentication: an anonymous caller still learns only that it must sign
 * in, and no organization is looked up with a value that cannot be stored. Like a 401 or a 404
 * `org_not_found`, such a request is refused before it counts toward an organization's rate.
 */
export const checkParameterText: Stage = () => (req, _res, next) => {
  const problem = pathProblem(req.params) ?? queryProblem(req);
  next(problem ? badRequestAt(problem) : undefined);
};

function pathProblem(params: Record<string, string | string[]>): ErrorDetail | undefined {
  for (const [name, value] of Object.entries(params)) {
    const values = typeof value === 'string' ? [value] : value;
    if (!values.every(isStorableText)) return { path: `/path/${name}`, message: UNSTORABLE_TEXT };
  }
  return undefined;
}

function queryProblem(req: Request): ErrorDetail | undefined {
  const url = req.originalUrl;
  const start = url.indexOf('?');
  if (start < 0) return undefined;
  const raw = url.slice(start + 1);
  // The whole string decoded at once is the common case's only cost; each pair is looked at
  // only to name the one at fault.
  const whole = percentDecoded(raw);
  if (whole !== undefined && !whole.includes('\u0000')) return undefined;
  for (const pair of raw.split('&')) {
    const [rawName = '', rawValue = ''] = splitOnce(pair, '=');
    const name = percentDecoded(rawName);
    const value = percentDecoded(rawValue);
    const path = `/query/${name ?? rawName}`;
    if (name === undefined || value === undefined) return { path, message: 'is not valid percent-encoded UTF-8' };
    if (!isStorableText(name) || !isStorableText(value)) return { path, message: UNSTORABLE_TEXT };
  }
  return undefined;
}

/** The text percent-encoding stands for, or undefined when it is malformed or not UTF-8. */
function percentDecoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

const splitOnce = (text: string, separator: string): [string, string] => {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
};
