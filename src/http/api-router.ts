import express, { type Request, type RequestHandler, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Authorizer } from '../auth/authorize.js';
import type { Rule } from '../auth/rules.js';
import { ApiError, notImplemented } from '../errors/api-error.js';
import type { Logger } from '../log/logger.js';
import { requestLogger } from './request-log.js';
import { listOperations, toExpressPath, type OpenApiDocument, type OperationLocation } from './openapi-document.js';
import type { OperationTable } from './operation-table.js';

export interface ApiRouterOptions {
  spec: OpenApiDocument;
  operations: OperationTable;
  authorizer: Authorizer;
  logger: Logger;
  /** Check every response against the contract (tests); off in production, where it costs CPU per request. */
  validateResponses: boolean;
}

/**
 * The one place that turns openapi.yaml into routes: it owns the validator options, mounts one
 * route per operation, enforces each operation's declared rule through the authorizer, and
 * sends the handler's result with the operation's success status.
 *
 * Each path gets a validator instance of its own, holding the document with just that path.
 * A single instance would try every path's pattern, compiled afresh, on every request (the
 * validator does not cache them); Express has already matched the route, so one is enough.
 */
export function createApiRouter(options: ApiRouterOptions): express.Router {
  const router = express.Router();
  const operationsByPath = new Map<string, OperationLocation[]>();
  for (const location of listOperations(options.spec)) {
    operationsByPath.set(location.path, [...(operationsByPath.get(location.path) ?? []), location]);
  }
  for (const [path, located] of operationsByPath) {
    const validate = pathValidator(options, path);
    const route = router.route(toExpressPath(path));
    for (const { operationId, method } of located) {
      const spec = options.operations[operationId as keyof OperationTable];
      if (!spec) throw new Error(`openapi.yaml has ${operationId}, which the operation table lacks`);
      route[method](validate, operationHandler(operationId, spec as RuntimeSpec, options));
    }
    const allow = located.map((l) => l.method.toUpperCase()).join(', ');
    route.all(() => {
      throw new ApiError(405, 'method_not_allowed', `This path allows ${allow}.`, undefined, { Allow: allow });
    });
  }
  return router;
}

function pathValidator(options: ApiRouterOptions, path: string): RequestHandler[] {
  const { paths, ...rest } = options.spec;
  return OpenApiValidator.middleware({
    apiSpec: structuredClone({ ...rest, paths: { [path]: paths[path] } }) as never,
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
    validateResponses: options.validateResponses ? { allErrors: true } : false,
    validateSecurity: false,
    validateFormats: true,
    ignoreUndocumented: false,
    fileUploader: false,
    $refParser: { mode: 'bundle' },
  }) as RequestHandler[];
}

interface RuntimeSpec {
  rule: Rule;
  status?: number;
  handle?: (ctx: Record<string, unknown>) => Promise<unknown>;
}

function operationHandler(operationId: string, spec: RuntimeSpec, options: ApiRouterOptions): RequestHandler {
  const { authorizer, logger } = options;
  // An operation without a handler still authenticates its caller, so 501 never tells an
  // outsider more than a built operation would.
  const gateRule: Rule = spec.handle || (spec.rule !== 'projectRead' && spec.rule !== 'projectManage') ? spec.rule : 'member';
  return async (req: Request, res: Response) => {
    const authorization = await authorizer.authorize(gateRule, req);
    if (!spec.handle) throw notImplemented(operationId);
    const result = await spec.handle({
      req,
      res,
      params: req.params,
      query: req.query,
      body: req.body,
      get log() {
        return requestLogger(res, logger);
      },
      ...authorization,
    });
    if (res.headersSent) return;
    res.status(spec.status ?? 200);
    if (result === undefined) res.end();
    else res.json(result);
  };
}
