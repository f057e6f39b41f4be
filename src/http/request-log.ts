import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { Logger } from '../log/logger.js';

const INCOMING_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives every request a fresh id of the server's own and echoes it as `X-Request-Id`. A caller's
 * well-formed `X-Request-Id` is kept beside it (`clientRequestId`), never used as the id: a caller
 * could forge or reuse it, and the id reaches the audit log and other systems through webhooks.
 * Writes one log line, with both ids, when the response ends. Only the method, the path without its
 * query string (a login link carries its token there) and with its secret segments replaced by
 * their template's names (`writePath`: an invitation link's token accepts it), the status and the
 * duration are logged: never headers, cookies or bodies.
 */
export function requestLog(logger: Logger, writePath: (path: string) => string = (path) => path): RequestHandler {
  // The summary line holds only the fields below, none of which can carry a secret, so it skips
  // the redaction pass the root logger applies to everything else (a deep pass per line is
  // several times the cost of writing it).
  const lines = logger.child({}, { redact: { paths: [] } });
  return (req, res, next) => {
    const header = req.headers['x-request-id'];
    const clientId = typeof header === 'string' && INCOMING_ID.test(header) ? header : undefined;
    const id = randomUUID();
    const started = process.hrtime.bigint();
    res.locals.requestId = id;
    res.locals.clientRequestId = clientId;
    res.setHeader('X-Request-Id', id);
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const path = writePath(req.originalUrl.split('?', 1)[0]!);
      lines.info(
        {
          reqId: id,
          clientReqId: clientId,
          method: req.method,
          path,
          status: res.statusCode,
          ms: Math.round(ms * 100) / 100,
        },
        'request',
      );
    });
    next();
  };
}

/**
 * The logger for lines about this request, tagged with its id. Made on first use: most
 * requests log nothing but their one summary line, and a child logger per request is not free.
 */
export function requestLogger(res: Response, logger: Logger): Logger {
  const existing = res.locals.log as Logger | undefined;
  if (existing) return existing;
  const requestId = res.locals.requestId as string | undefined;
  const log = requestId ? logger.child({ reqId: requestId }) : logger;
  res.locals.log = log;
  return log;
}
