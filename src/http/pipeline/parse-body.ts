import { isAscii, isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ApiError, badRequest, badRequestAt, type ErrorDetail } from '../../errors/api-error.js';
import { isStorableText, UNSTORABLE_TEXT } from '../../shared/text.js';
import { payloadTooLarge } from './body-size.js';
import { duplicateKey } from './duplicate-keys.js';
import { carriesBody, contextOf, type Stage } from './stage.js';

/** Raised from the parser's `verify` hook; the parser hands it on as its own error. */
class NotUtf8 extends Error {}

/** JSON as sent: a body whose bytes are not UTF-8 is refused, never repaired with U+FFFD. */
function verifyUtf8(_req: IncomingMessage, _res: unknown, body: Buffer): void {
  if (!isUtf8(body)) throw new NotUtf8('The request body is not valid UTF-8.');
}

/**
 * Parses a JSON body within the limit the body-size stage set. Refuses, before any rule or
 * schema sees the body: a body that is not `application/json` (415), a charset other than UTF-8,
 * bytes that are not UTF-8 or a `Content-Encoding` that does not decode (400), malformed JSON, a
 * top-level value that is no object or a key given twice in one object (400), a body that outgrows the limit
 * while it streams (413), and text no field may hold or nesting deeper than any request needs (400,
 * see `bodyProblem`).
 *
 * body-parser reads the bytes (limit, Content-Length, Content-Encoding) and the text is decoded
 * here: its JSON parser decodes through iconv-lite's stream decoder, slow on a large skill, where
 * a body of ASCII bytes (nearly every JSON body) becomes a string at copying speed.
 * Parsers are made once per distinct limit: organizations share a handful of limits.
 */
export const parseJsonBody =
  (serverLimit: number): Stage =>
  ({ method, batchBody }) => {
    if (!carriesBody(method)) return undefined;
    const parsers = new Map<number, RequestHandler>();
    const types = batchBody ? ['application/json', NDJSON] : 'application/json';
    const parserFor = (limit: number): RequestHandler => {
      let parser = parsers.get(limit);
      if (!parser) {
        parser = express.raw({ type: types, limit, verify: verifyUtf8 });
        parsers.set(limit, parser);
      }
      return parser;
    };
    return (req: Request, res: Response, next: NextFunction) => {
      const ndjson = batchBody && req.is(NDJSON) === NDJSON;
      if (hasBody(req) && !ndjson && !req.is(['application/json', '+json'])) {
        throw new ApiError(
          415,
          'unsupported_media_type',
          batchBody
            ? 'The request body must be a JSON array (Content-Type: application/json) or NDJSON (application/x-ndjson).'
            : 'The request body must be JSON (Content-Type: application/json).',
        );
      }
      if (!isUtf8Charset(req.headers['content-type'])) throw badRequest(NOT_UTF8_JSON);
      const limit = contextOf(res).bodyLimit ?? serverLimit;
      parserFor(limit)(req, res, (err?: unknown) => {
        // This runs from the parser's stream callbacks, outside Express's own catch: whatever
        // goes wrong here must reach next(), or it would end the process.
        let refusal: unknown;
        try {
          if (err) refusal = parseError(err, limit);
          else {
            if (Buffer.isBuffer(req.body)) req.body = ndjson ? textOf(req.body) : parseJson(req.body, batchBody);
            const problem = bodyProblem(req.body);
            if (problem) refusal = badRequestAt(problem);
          }
        } catch (caught) {
          refusal = caught;
        }
        next(refusal);
      });
    };
  };

const NOT_UTF8_JSON = 'The request body must be UTF-8 JSON without a Content-Encoding other than gzip, deflate or br.';

/** Whether a Content-Type names no charset or UTF-8, the only one JSON has (RFC 8259 §8.1). */
function isUtf8Charset(contentType: string | undefined): boolean {
  const charset = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  if (!charset) return true;
  const name = (charset[1] ?? charset[2] ?? '').toLowerCase();
  return name === 'utf-8' || name === 'utf8';
}

/**
 * The value of a JSON body whose bytes are UTF-8 (the parser's verify hook saw to that): an empty
 * body is `{}` (as body-parser's), the top level must be an object, and no object may give a key
 * twice (JSON.parse would keep the last silently).
 */
function parseJson(bytes: Buffer, arrayAllowed: boolean): unknown {
  if (bytes.length === 0) return {};
  const text = textOf(bytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(NOT_JSON);
  }
  // Every request body of the contract is an object, but a batch's array: anything else is named
  // for what it is. A batch's items are checked by its operation.
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject && !(arrayAllowed && Array.isArray(value)))
    throw badRequest(`The request body must be a JSON ${arrayAllowed ? 'array' : 'object'}; got ${kindOf(value)}.`);
  const duplicate = duplicateKey(text);
  if (duplicate) throw badRequestAt(duplicate);
  return value;
}

const NOT_JSON = 'The request body is not valid JSON.';

/** A batch's other form: one JSON value per line (the operation reads the lines). */
const NDJSON = 'application/x-ndjson';

/**
 * The text of UTF-8 bytes. ASCII is latin1 byte for byte, and a one-byte string is made by
 * copying. A leading byte-order mark is dropped, as body-parser's decoder did.
 */
function textOf(bytes: Buffer): string {
  const decoded = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  return decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
}

const kindOf = (value: unknown): string =>
  Array.isArray(value)
    ? 'an array'
    : value === null
      ? 'null'
      : typeof value === 'string'
        ? 'a string'
        : `a ${typeof value}`;

/** A body is present when the request says so by its framing, whatever its length. */
const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/** Every way the parser can fail is the client's: none may become a 500. */
function parseError(err: unknown, limit: number): ApiError {
  if (err instanceof NotUtf8 || (err as { cause?: unknown }).cause instanceof NotUtf8)
    return badRequest('The request body is not valid UTF-8.');
  const { type, status } = err as { type?: unknown; status?: unknown };
  if (type === 'entity.too.large' || status === 413) return payloadTooLarge(limit);
  if (type === 'encoding.unsupported') return badRequest(NOT_UTF8_JSON);
  return badRequest('The request body could not be read: its Content-Encoding does not decode, or it ended early.');
}

/**
 * How deeply arrays and objects may nest in a body (the top-level value is depth 1). The
 * deepest body the contract describes nests four levels; the cap only keeps a body of nothing
 * but brackets from costing more than its bytes, in this walk or in any later one.
 */
export const MAX_BODY_DEPTH = 64;

/** A value still to visit, with what it takes to name its JSON path should it be refused. */
interface Visit {
  value: unknown;
  depth: number;
  parent: Visit | undefined;
  key: string;
}

/**
 * The first thing in a parsed body that no field may hold: a string (or key) with U+0000 or a
 * lone surrogate — refusing both here keeps every field, present and future, storable on either
 * database — or arrays and objects nested deeper than MAX_BODY_DEPTH. The walk keeps its own
 * stack, so no body can exhaust the call stack, and names a path only for what it refuses.
 */
export function bodyProblem(body: unknown): ErrorDetail | undefined {
  const stack: Visit[] = [{ value: body, depth: 0, parent: undefined, key: '' }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { value, depth } = visit;
    if (typeof value === 'string') {
      if (!isStorableText(value)) return unstorable(pathOf(visit));
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth + 1 > MAX_BODY_DEPTH)
      return {
        path: pathOf(visit),
        message: `must not nest arrays and objects more than ${MAX_BODY_DEPTH} levels deep`,
      };
    // Children are pushed last to first, so the first problem in document order is the one named.
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], depth: depth + 1, parent: visit, key: String(i) });
      continue;
    }
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i] as [string, unknown];
      stack.push({ value: item, depth: depth + 1, parent: visit, key });
    }
    for (const [key] of entries) {
      if (!isStorableText(key)) return unstorable(pathOf({ value: undefined, depth, parent: visit, key }));
    }
  }
  return undefined;
}

const unstorable = (path: string): ErrorDetail => ({ path, message: UNSTORABLE_TEXT });

/** The JSON pointer of a visited value under `/body` (RFC 6901: `~` and `/` in keys escaped). */
function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent !== undefined; at = at.parent)
    keys.push(at.key.replace(/~/g, '~0').replace(/\//g, '~1'));
  return ['/body', ...keys.reverse()].join('/');
}
