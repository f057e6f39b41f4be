import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { isName } from '../../shared/text.js';
import { isRfc3339Timestamp } from '../../shared/timestamps.js';
import type { OpenApiDocument } from '../openapi-document.js';
import type { Stage } from './stage.js';

/**
 * Validation against openapi.yaml by express-openapi-validator, whose options live here only.
 *
 * Each path gets a validator instance of its own, holding the document with just that path and
 * the components it reaches. A single instance would try every path's pattern, compiled afresh,
 * on every request (the validator does not cache them); Express has already matched the route, so
 * one is enough. And an instance compiles every schema of the document it holds when it starts,
 * so a path's validator would otherwise pay for every other path's schemas.
 *
 * Answers are not checked here: the test client checks every answer it receives against the
 * contract (test/support/response-contract.ts), as the bytes arrived, so the server sends the same
 * bytes in tests as in production.
 *
 * 400 `validation_failed` for a request that breaks the contract (path, query and body).
 */
export function contractValidation(document: OpenApiDocument): Stage {
  const spec = withQueryAsSent(document);
  const byPath = new Map<string, RequestHandler[]>();
  const validatorOf = (path: string) => {
    let handlers = byPath.get(path);
    if (!handlers) {
      handlers = OpenApiValidator.middleware({
        apiSpec: structuredClone(onePath(spec, path)) as never,
        // The document is checked once, by `npm run lint:spec` and the contract tests; checking
        // it again compiles the OpenAPI meta-schema for every path, at each path's first use.
        validateApiSpec: false,
        validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
        validateResponses: false,
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
      if (!handlers.some((handler) => handler.name === 'requestMiddleware'))
        throw new Error('express-openapi-validator: no request validation middleware found');
      byPath.set(path, handlers);
    }
    return handlers;
  };
  return ({ path }) => onFirstUse(() => validatorOf(path));
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
/**
 * Every query parameter read as sent (`allowReserved`): the validator otherwise refuses a raw
 * `:` or `+` in a value unless the parameter's own entry says so, so that `?from=…T00:00:00Z`
 * passed on one operation and failed on the next. The query string is decoded one way for all
 * (src/http/query-parser.ts); the validator checks the decoded values.
 */
function withQueryAsSent(document: OpenApiDocument): OpenApiDocument {
  type Parameter = { in?: string; allowReserved?: boolean };
  type WithParameters = { parameters?: Parameter[] };
  const spec = structuredClone(document);
  const loose = spec as unknown as {
    components?: { parameters?: Record<string, Parameter> };
    paths: Record<string, WithParameters & Record<string, WithParameters | undefined>>;
  };
  const lists: Parameter[][] = [Object.values(loose.components?.parameters ?? {})];
  for (const item of Object.values(loose.paths)) {
    lists.push(item.parameters ?? []);
    for (const operation of Object.values(item))
      if (operation && 'parameters' in operation) lists.push(operation.parameters ?? []);
  }
  for (const list of lists) for (const parameter of list) if (parameter.in === 'query') parameter.allowReserved = true;
  return spec;
}

type Components = Record<string, Record<string, unknown>>;

/**
 * The document with one path (HEAD beside its GET) and only the components that path reaches
 * through `$ref`, directly or through other components; the security schemes stay whole.
 */
function onePath(document: OpenApiDocument, path: string): OpenApiDocument {
  const { paths, components = {}, ...rest } = document as OpenApiDocument & { components?: Components };
  const item = withHead(paths[path]);
  const kept: Components = { securitySchemes: components.securitySchemes ?? {} };
  const pending: unknown[] = [item];
  while (pending.length > 0) {
    const node = pending.pop();
    if (!node || typeof node !== 'object') continue;
    for (const [key, value] of Object.entries(node)) {
      const target =
        key === '$ref' && typeof value === 'string' ? /^#\/components\/([^/]+)\/([^/]+)$/.exec(value) : null;
      const [, kind = '', name = ''] = target ?? [];
      if (!target) pending.push(value);
      else if (!kept[kind]?.[name] && components[kind]?.[name]) {
        kept[kind] = { ...kept[kind], [name]: components[kind][name] };
        pending.push(components[kind][name]);
      }
    }
  }
  return { ...rest, paths: item ? { [path]: item } : {}, components: kept } as OpenApiDocument;
}

function withHead(item: OpenApiDocument['paths'][string] | undefined) {
  return item?.get ? { ...item, head: item.get } : item;
}
