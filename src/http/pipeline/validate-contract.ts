import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { isName } from '../../shared/text.js';
import { isRfc3339Timestamp } from '../../shared/timestamps.js';
import type { OpenApiDocument } from '../openapi-document.js';
import type { Stage } from './stage.js';

export interface ContractStages {
  /**
   * Checks every response, refusals by early stages included, against the contract: an answer
   * that would break it becomes a 500 (tests); off in production, where it costs CPU per request.
   */
  checkResponses: Stage;
  /** 400 `validation_failed` for a request that breaks the contract (path, query and body). */
  validateRequest: Stage;
}

/**
 * Validation against openapi.yaml by express-openapi-validator, whose options live here only.
 *
 * Each path gets a validator instance of its own, holding the document with just that path.
 * A single instance would try every path's pattern, compiled afresh, on every request (the
 * validator does not cache them); Express has already matched the route, so one is enough.
 *
 * One instance serves both stages: its response check only looks at requests its own metadata
 * step has marked, so the response half (installed first, to see every answer) and the request
 * half (installed after the body is parsed and the org role checked) must come from the same one.
 */
export function contractValidation(spec: OpenApiDocument, options: { checkResponses: boolean }): ContractStages {
  const byPath = new Map<string, { early: RequestHandler[]; request: RequestHandler[] }>();
  const validatorOf = (path: string) => {
    let halves = byPath.get(path);
    if (!halves) {
      const { paths, ...rest } = spec;
      const handlers = OpenApiValidator.middleware({
        apiSpec: structuredClone({ ...rest, paths: { [path]: withHead(paths[path]) } }) as never,
        // The document is checked once, by `npm run lint:spec` and the contract tests; checking
        // it again compiles the OpenAPI meta-schema for every path, at each path's first use.
        validateApiSpec: false,
        validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
        validateResponses: options.checkResponses ? { allErrors: true } : false,
        validateSecurity: false,
        validateFormats: true,
        formats: {
          // Strict RFC 3339: ajv's date-time accepts a leap second, and its fast mode month 13.
          'date-time': { type: 'string', validate: isRfc3339Timestamp },
          name: { type: 'string', validate: isName },
        },
        ignoreUndocumented: false,
        fileUploader: false,
        $refParser: { mode: 'bundle' },
      }) as RequestHandler[];
      const isRequestCheck = (handler: RequestHandler) => handler.name === 'requestMiddleware';
      // Without the response check, nothing needs to run early: the request half takes it all.
      halves = options.checkResponses
        ? { early: handlers.filter((h) => !isRequestCheck(h)), request: handlers.filter(isRequestCheck) }
        : { early: [], request: handlers };
      if (halves.request.length === 0)
        throw new Error('express-openapi-validator: no request validation middleware found');
      byPath.set(path, halves);
    }
    return halves;
  };
  return {
    checkResponses: ({ path }) => (options.checkResponses ? onFirstUse(() => validatorOf(path).early) : undefined),
    validateRequest: ({ path }) => onFirstUse(() => validatorOf(path).request),
  };
}

/**
 * Runs the handlers `make` returns, made on the first request that needs them: compiling a
 * path's validator is most of what building the app costs, and a path nobody calls never pays it,
 * so the server answers its first request in a fraction of the time it would take to compile all.
 */
function onFirstUse(make: () => RequestHandler[]): RequestHandler {
  let handlers: RequestHandler[] | undefined;
  return (req, res, next) => {
    handlers ??= make();
    const chain = handlers;
    let i = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) {
        next(err);
        return;
      }
      const handler = chain[i++];
      if (!handler) {
        next();
        return;
      }
      try {
        // Express 5 turns a handler's rejected promise into next(err); so does this chain.
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise) result.catch(next);
      } catch (caught) {
        next(caught);
      }
    };
    step();
  };
}

/**
 * HEAD is GET without the body (Express answers it with the GET route): the validator, which
 * knows only the methods the document lists, is told so.
 */
function withHead(item: OpenApiDocument['paths'][string] | undefined) {
  return item?.get ? { ...item, head: item.get } : item;
}
