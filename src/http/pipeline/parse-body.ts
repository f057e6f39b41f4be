import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { payloadTooLarge } from './body-size.js';
import { carriesBody, contextOf, type Stage } from './stage.js';

/**
 * Parses a JSON body within the limit the body-size stage set (400 `validation_failed` for
 * malformed JSON, 413 when the body outgrows the limit while it streams). Parsers are made
 * once per distinct limit: organizations share a handful of limits, not one each.
 */
export const parseJsonBody =
  (serverLimit: number): Stage =>
  ({ method }) => {
    if (!carriesBody(method)) return undefined;
    const parsers = new Map<number, RequestHandler>();
    const parserFor = (limit: number): RequestHandler => {
      let parser = parsers.get(limit);
      if (!parser) {
        parser = express.json({ limit });
        parsers.set(limit, parser);
      }
      return parser;
    };
    return (req: Request, res: Response, next: NextFunction) => {
      const limit = contextOf(res).bodyLimit ?? serverLimit;
      parserFor(limit)(req, res, (err?: unknown) => {
        if ((err as { type?: unknown } | undefined)?.type === 'entity.too.large') return next(payloadTooLarge(limit));
        next(err);
      });
    };
  };
