import type express from 'express';
import type { Request, RequestHandler, Response } from 'express';
import { isAreaScope } from '../api-tokens/scopes.js';
import type { AuthenticatedToken } from '../api-tokens/service.js';
import { type AuditActor, withAuditScope } from '../audit/scope.js';
import type { AuthenticatedSession } from '../auth/sessions.js';
import type { Rule } from '../auth/rules.js';
import type { Clock } from '../config/clock.js';
import { ApiError } from '../errors/api-error.js';
import type { Logger } from '../log/logger.js';
import type { OrgAccess } from '../orgs/store.js';
import { listOperations, toExpressPath, type OpenApiDocument, type OperationLocation } from './openapi-document.js';
import type { OperationTable } from './operation-table.js';
import { contextOf, type PipelineOperation, type RequestContext, type Stage } from './pipeline/stage.js';
import { listedAnswerText } from './answer.js';
import { type CsvExport, sendCsv, wantsCsv } from './csv.js';
import { requestLogger } from './request-log.js';

export interface ApiRouterOptions {
  spec: OpenApiDocument;
  operations: OperationTable;
  /** The stages every request of an operation passes, in order, before its handler. */
  pipeline: readonly Stage[];
  logger: Logger;
  /** The time audit events are stamped with. */
  clock: Clock;
}

/** Where the routes go: the app itself, or a router. */
export type RouteTarget = Pick<express.Router, 'route'>;

/**
 * The one place that turns openapi.yaml into routes: one route per operation, running the
 * pipeline's stages that apply to it and then its handler, whose result is sent with the
 * operation's success status. A method the path does not have answers 405 with `Allow`.
 *
 * The routes are added to `target`, in practice the app itself: a router of their own would be
 * one more routing pass per request, with its own closures for every request to allocate.
 */
export function addApiRoutes(target: RouteTarget, options: ApiRouterOptions): void {
  const operationsByPath = new Map<string, OperationLocation[]>();
  for (const location of listOperations(options.spec)) {
    operationsByPath.set(location.path, [...(operationsByPath.get(location.path) ?? []), location]);
  }
  for (const [path, located] of operationsByPath) {
    const route = target.route(toExpressPath(path));
    for (const location of located) {
      const spec = options.operations[location.operationId as keyof OperationTable] as unknown as
        | RuntimeSpec
        | undefined;
      if (!spec) throw new Error(`openapi.yaml has ${location.operationId}, which the operation table lacks`);
      const operation = pipelineOperation(location, spec.rule);
      const stages = options.pipeline.flatMap((stage) => stage(operation) ?? []);
      route[location.method](...stages, operationHandler(operation, spec, options));
    }
    const allow = located.map((l) => l.method.toUpperCase()).join(', ');
    route.all(() => {
      throw new ApiError(405, 'method_not_allowed', `This path allows ${allow}.`, undefined, { Allow: allow });
    });
  }
}

function pipelineOperation({ operationId, method, path, operation }: OperationLocation, rule: Rule): PipelineOperation {
  const summary = typeof operation.summary === 'string' ? operation.summary : operationId;
  const scope = operation['x-authorization']?.scope;
  if (scope !== undefined && !isAreaScope(scope))
    throw new Error(`openapi.yaml: ${operationId} names an unknown scope "${scope}"`);
  const runtime = operation['x-authorization']?.runtime === true;
  const content = (operation.requestBody as { content?: Record<string, unknown> } | undefined)?.content;
  const batchBody = content?.['application/x-ndjson'] !== undefined;
  return { operationId, summary, method, path, rule, scope, runtime, batchBody };
}

interface RuntimeSpec {
  rule: Rule;
  status?: number;
  handle: (ctx: HandlerContext) => Promise<unknown>;
  csv?: CsvExport<unknown>;
}

function operationHandler(
  operation: PipelineOperation,
  spec: RuntimeSpec,
  { logger, clock }: Pick<ApiRouterOptions, 'logger' | 'clock'>,
): RequestHandler {
  const changesState = operation.method !== 'get';
  return async (req: Request, res: Response) => {
    // The answer depends on Accept when it can be CSV: caches keep the two apart.
    if (spec.csv) res.vary('Accept');
    const context = contextOf(res);
    const handle = () => spec.handle(new HandlerContext(req, res, context, logger));
    // A state change is recorded by the service that makes it, in its transaction; the scope
    // tells it who is calling, which operation this is and the request's ids.
    const result =
      changesState && context.session
        ? await withAuditScope(
            {
              at: clock.now(),
              actor: actorOf(context.session, context.token, context.access),
              action: operation.operationId,
              requestId: requestIdOf(res),
              clientRequestId: clientRequestIdOf(res),
            },
            handle,
          )
        : await handle();
    if (res.headersSent) return;
    res.status(spec.status ?? 200);
    if (spec.csv && wantsCsv(req)) {
      await sendCsv(res, spec.csv.filename, spec.csv.table(result));
      return;
    }
    if (result === undefined) {
      res.end();
      return;
    }
    const text = listedAnswerText(result);
    if (text) sendJsonText(res, text);
    else res.json(result);
  };
}

/** An answer's JSON text, sent with the headers `res.json` sends with what it serializes. */
function sendJsonText(res: Response, text: Buffer): void {
  // res.json's type, with the charset it adds to a string body (a Buffer gets none by itself).
  if (!res.get('Content-Type')) res.set('Content-Type', 'application/json; charset=utf-8');
  res.send(text);
}

/**
 * What a handler is given: the request and its parsed parts, what the stages established, and a
 * logger made on first use. A class, so that `log` is a getter on its prototype: an object literal
 * with a getter of its own is made by V8's slow path, outside the young generation, and as it
 * points at the request, every request's objects outlived the young-generation GC meant to free
 * them (as with a changed prototype: see platform/server-objects.ts).
 */
class HandlerContext {
  readonly params: Request['params'];
  readonly query: Request['query'];
  readonly body: unknown;
  readonly #logger: Logger;

  constructor(
    readonly req: Request,
    readonly res: Response,
    context: RequestContext,
    logger: Logger,
  ) {
    this.params = req.params;
    this.query = req.query;
    this.body = req.body;
    this.#logger = logger;
    Object.assign(this, context);
  }

  get log(): Logger {
    return requestLogger(this.res, this.#logger);
  }
}

/**
 * The audit log's actor: the member, the token acting for them (named after both), or the
 * service account whose token it is (named after the account and the token).
 */
function actorOf(
  session: AuthenticatedSession,
  token: AuthenticatedToken | undefined,
  access: OrgAccess | undefined,
): AuditActor {
  // Named as the organization whose log it is names them (src/users/shown-profile.ts).
  const name = access?.memberName ?? session.user.displayName;
  if (token?.ownerType === 'serviceAccount') {
    return { type: 'serviceAccount', id: session.user.id, displayName: `${name} (token "${token.name}")` };
  }
  if (token) return { type: 'token', id: token.id, displayName: `${name} (token "${token.name}")` };
  return { type: 'user', id: session.user.id, displayName: name };
}

const requestIdOf = (res: Response): string | null => (res.locals.requestId as string | undefined) ?? null;
const clientRequestIdOf = (res: Response): string | null => (res.locals.clientRequestId as string | undefined) ?? null;
