import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ApiError, badRequest } from '../../errors/api-error.js';
import { isStorableText } from '../../shared/text.js';
import { payloadTooLarge } from './body-size.js';
import { carriesBody, contextOf, type Stage } from './stage.js';

/** Raised from the parser's `verify` hook; the parser hands it on as its own error. */
class NotUtf8 extends Error {}

/** JSON as sent: a body whose bytes are not UTF-8 is refused, never repaired with U+FFFD. */
function verifyUtf8(_req: IncomingMessage, _res: unknown, body: Buffer): void {
  if (!isUtf8(body)) throw new NotUtf8('The request body is not valid UTF-8.');
}

/**
 * Parses a JSON body within the limit the body-size stage set. Refuses, before any rule or
 * schema sees the body: a body that is not `application/json` (415), bytes that are not UTF-8
 * or a `Content-Encoding` that does not decode (400), malformed JSON (400), a body that outgrows
 * the limit while it streams (413), and text no field may hold (400, see `forbiddenTextAt`).
 * Parsers are made once per distinct limit: organizations share a handful of limits.
 */
export const parseJsonBody =
  (serverLimit: number): Stage =>
  ({ method }) => {
    if (!carriesBody(method)) return undefined;
    const parsers = new Map<number, RequestHandler>();
    const parserFor = (limit: number): RequestHandler => {
      let parser = parsers.get(limit);
      if (!parser) {
        parser = express.json({ limit, verify: verifyUtf8 });
        parsers.set(limit, parser);
      }
      return parser;
    };
    return (req: Request, res: Response, next: NextFunction) => {
      if (hasBody(req) && !req.is(['application/json', '+json'])) {
        throw new ApiError(
          415,
          'unsupported_media_type',
          'The request body must be JSON (Content-Type: application/json).',
        );
      }
      const limit = contextOf(res).bodyLimit ?? serverLimit;
      parserFor(limit)(req, res, (err?: unknown) => {
        if (err) return next(parseError(err, limit));
        const where = forbiddenTextAt(req.body, '/body');
        if (where)
          return next(
            badRequest(`${where} holds U+0000 or a lone surrogate, which no text here may contain.`, [
              { path: where, message: 'must not contain U+0000 or a lone surrogate' },
            ]),
          );
        next();
      });
    };
  };

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
  if (type === 'entity.parse.failed') return badRequest('The request body is not valid JSON.');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported')
    return badRequest('The request body must be UTF-8 JSON without a Content-Encoding other than gzip, deflate or br.');
  return badRequest('The request body could not be read: its Content-Encoding does not decode, or it ended early.');
}

/**
 * The JSON path of the first string (or key) holding U+0000 or a lone surrogate, if any:
 * refusing both here keeps every field, present and future, storable on either database.
 */
export function forbiddenTextAt(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = forbiddenTextAt(value[i], `${path}/${i}`);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!isStorableText(key)) return `${path}/${key}`;
      const found = forbiddenTextAt(item, `${path}/${key}`);
      if (found) return found;
    }
  }
  return undefined;
}
