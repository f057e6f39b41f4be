import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { Logger } from '../log/logger.js';

const INCOMING_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives every request an id (the caller's `X-Request-Id` when it is well-formed), echoes it,
 * and writes one log line when the response ends. Only the method, the path without its
 * query string (a login link carries its token there), the status and the duration are
 * logged: never headers, cookies or bodies.
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const header = req.headers['x-request-id'];
    const id = typeof header === 'string' && INCOMING_ID.test(header) ? header : randomUUID();
    const started = process.hrtime.bigint();
    const log = logger.child({ reqId: id });
    res.locals.requestId = id;
    res.locals.log = log;
    res.setHeader('X-Request-Id', id);
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const path = req.originalUrl.split('?', 1)[0];
      log.info({ method: req.method, path, status: res.statusCode, ms: Math.round(ms * 100) / 100 }, 'request');
    });
    next();
  };
}

export function requestLogger(res: Response, fallback: Logger): Logger {
  return (res.locals.log as Logger | undefined) ?? fallback;
}
