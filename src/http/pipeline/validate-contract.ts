import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { isName } from '../../shared/text.js';
import { isRfc3339Timestamp } from '../../shared/timestamps.js';
import type { OpenApiDocument } from '../openapi-document.js';
import type { Stage } from './stage.js';

/**
 * Validation against openapi.yaml by express-openapi-validator, whose options live here only.
 *
 * Each path gets a validator instance of its own, holding the document with just that path.
 * A single instance would try every path's pattern, compiled afresh, on every request (the
 * validator does not cache them); Express has already matched the route, so one is enough.
 */
function perPathValidators(spec: OpenApiDocument, options: { requests: boolean; responses: boolean }): Stage {
  const byPath = new Map<string, RequestHandler[]>();
  return ({ path }) => {
    let handlers = byPath.get(path);
    if (!handlers) {
      const { paths, ...rest } = spec;
      handlers = OpenApiValidator.middleware({
        apiSpec: structuredClone({ ...rest, paths: { [path]: withHead(paths[path]) } }) as never,
        validateRequests: options.requests ? { allowUnknownQueryParameters: false, coerceTypes: false } : false,
        validateResponses: options.responses ? { allErrors: true } : false,
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
      byPath.set(path, handlers);
    }
    return handlers;
  };
}

/**
 * HEAD is GET without the body (Express answers it with the GET route): the validator, which
 * knows only the methods the document lists, is told so.
 */
function withHead(item: OpenApiDocument['paths'][string] | undefined) {
  return item?.get ? { ...item, head: item.get } : item;
}

/** 400 `validation_failed` for a request that breaks the contract (path, query and body). */
export const validateRequest = (spec: OpenApiDocument): Stage => perPathValidators(spec, { requests: true, responses: false });

/**
 * Checks every response, refusals by early stages included, against the contract: an answer
 * that would break it becomes a 500 (tests); off in production, where it costs CPU per request.
 */
export const validateResponses = (spec: OpenApiDocument, enabled: boolean): Stage =>
  enabled ? perPathValidators(spec, { requests: false, responses: true }) : () => undefined;
