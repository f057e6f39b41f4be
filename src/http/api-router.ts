import express, { type Request, type RequestHandler, type Response } from 'express';
import type { Rule } from '../auth/rules.js';
import { ApiError } from '../errors/api-error.js';
import type { Logger } from '../log/logger.js';
import { listOperations, toExpressPath, type OpenApiDocument, type OperationLocation } from './openapi-document.js';
import type { OperationTable } from './operation-table.js';
import { contextOf, type PipelineOperation, type Stage } from './pipeline/stage.js';
import { requestLogger } from './request-log.js';

export interface ApiRouterOptions {
  spec: OpenApiDocument;
  operations: OperationTable;
  /** The stages every request of an operation passes, in order, before its handler. */
  pipeline: readonly Stage[];
  logger: Logger;
}

/**
 * The one place that turns openapi.yaml into routes: one route per operation, running the
 * pipeline's stages that apply to it and then its handler, whose result is sent with the
 * operation's success status. A method the path does not have answers 405 with `Allow`.
 */
export function createApiRouter(options: ApiRouterOptions): express.Router {
  const router = express.Router();
  const operationsByPath = new Map<string, OperationLocation[]>();
  for (const location of listOperations(options.spec)) {
    operationsByPath.set(location.path, [...(operationsByPath.get(location.path) ?? []), location]);
  }
  for (const [path, located] of operationsByPath) {
    const route = router.route(toExpressPath(path));
    for (const location of located) {
      const spec = options.operations[location.operationId as keyof OperationTable] as unknown as
        | RuntimeSpec
        | undefined;
      if (!spec) throw new Error(`openapi.yaml has ${location.operationId}, which the operation table lacks`);
      const operation = pipelineOperation(location, spec.rule);
      const stages = options.pipeline.flatMap((stage) => stage(operation) ?? []);
      route[location.method](...stages, operationHandler(spec, options.logger));
    }
    const allow = located.map((l) => l.method.toUpperCase()).join(', ');
    route.all(() => {
      throw new ApiError(405, 'method_not_allowed', `This path allows ${allow}.`, undefined, { Allow: allow });
    });
  }
  return router;
}

function pipelineOperation({ operationId, method, path, operation }: OperationLocation, rule: Rule): PipelineOperation {
  const summary = typeof operation.summary === 'string' ? operation.summary : operationId;
  return { operationId, summary, method, path, rule };
}

interface RuntimeSpec {
  rule: Rule;
  status?: number;
  handle: (ctx: Record<string, unknown>) => Promise<unknown>;
}

function operationHandler(spec: RuntimeSpec, logger: Logger): RequestHandler {
  return async (req: Request, res: Response) => {
    const result = await spec.handle({
      req,
      res,
      params: req.params,
      query: req.query,
      body: req.body,
      get log() {
        return requestLogger(res, logger);
      },
      ...contextOf(res),
    });
    if (res.headersSent) return;
    res.status(spec.status ?? 200);
    if (result === undefined) res.end();
    else res.json(result);
  };
}
