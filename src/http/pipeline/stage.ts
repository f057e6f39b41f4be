import type { RequestHandler, Response } from 'express';
import type { AuthenticatedToken } from '../../api-tokens/service.js';
import type { AreaScope } from '../../api-tokens/scopes.js';
import type { AuthenticatedSession } from '../../auth/sessions.js';
import type { Rule } from '../../auth/rules.js';
import type { OrgAccess } from '../../orgs/store.js';
import type { ProjectAccess } from '../../projects/project-guard.js';
import type { ShownRuntimeCredential } from '../../runtime/credential-service.js';
import type { HttpMethod } from '../openapi-document.js';

/** One operation of openapi.yaml as the pipeline sees it. */
export interface PipelineOperation {
  operationId: string;
  /** The operation's summary, for messages that name what was refused. */
  summary: string;
  method: HttpMethod;
  path: string;
  rule: Rule;
  /** The scope an API token needs for it (`x-authorization.scope`); undefined: no token may call it. */
  scope: AreaScope | undefined;
  /** Whether a service account's `runtime`-scoped token may call it (`x-authorization.runtime`). */
  runtime: boolean;
  /** Whether its body is a batch: a JSON array, or NDJSON text (`application/x-ndjson` in openapi.yaml). */
  batchBody: boolean;
}

/**
 * One stage of the request pipeline: the middleware it runs for an operation, or undefined
 * when the stage has nothing to decide for it (no session check on the public login, no body
 * to parse on a GET), so a request never pays for a stage that cannot refuse it.
 */
export type Stage = (operation: PipelineOperation) => RequestHandler | RequestHandler[] | undefined;

/** GET carries no body here; skipping the body stages spares every read a few checks. */
export const carriesBody = (method: HttpMethod): boolean => method !== 'get';

/** What the stages have established about the request, for the stages after them and the handler. */
export interface RequestContext {
  session?: AuthenticatedSession;
  /** Set when the caller authenticated with an API token rather than a session. */
  token?: AuthenticatedToken | undefined;
  access?: OrgAccess;
  project?: ProjectAccess;
  /** The largest body this request may carry, in bytes. */
  bodyLimit?: number;
  /** The platform runtime credential that authenticated a `platformRuntime` operation. */
  runtimeCredential?: ShownRuntimeCredential;
}

const CONTEXT = Symbol('requestContext');

export function contextOf(res: Response): RequestContext {
  const locals = res.locals as { [CONTEXT]?: RequestContext };
  locals[CONTEXT] ??= {};
  return locals[CONTEXT];
}

/** A value an earlier stage must have set; its absence is a pipeline built out of order. */
export function established<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`request pipeline: ${what} is not established at this stage`);
  return value;
}
