import type { operations } from '../../generated/openapi.js';
import { listOperations, type HttpMethod } from '../../src/http/openapi-document.js';
import type { OperationId, RequestBody, Schema, SuccessBody } from '../../src/api/types.js';

/**
 * The typed side of the test client: requests named by the contract's operationId, with their
 * path parameters, query, body and response body typed by the types generated from openapi.yaml.
 */

/** The error envelope of every non-2xx response. */
export type ErrorEnvelope = Schema<'Error'>;

export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

type Parameters_<O extends OperationId> = operations[O]['parameters'];
type Defined<T> = Exclude<T, undefined>;

/** The operation's path parameters, or never when it has none. */
export type PathOf<O extends OperationId> = Defined<Parameters_<O>['path']>;
type QueryOf<O extends OperationId> = Defined<Parameters_<O>['query']>;

type PathInput<P> = [P] extends [never] ? { path?: never } : { path: P };
type QueryInput<Q> = [Q] extends [never]
  ? { query?: never }
  : Record<string, never> extends Q
    ? { query?: Q }
    : { query: Q };
type BodyInput<B> = [B] extends [undefined] ? { body?: never } : undefined extends B ? { body?: B } : { body: B };

/** What the caller adds to the request besides its operation's parameters and body. */
export interface CallOptions {
  cookie?: string | undefined;
  headers?: Record<string, string>;
}

/** The contract's inputs of operation O (with `path` as `P`), plus cookie and headers. */
export type CallInputWith<O extends OperationId, P> = PathInput<P> &
  QueryInput<QueryOf<O>> &
  BodyInput<RequestBody<O>> &
  CallOptions;
export type CallInput<O extends OperationId> = CallInputWith<O, PathOf<O>>;

/** Operations whose inputs may all be left out. */
type OptionalInput<O extends OperationId, P> =
  Record<string, never> extends CallInputWith<O, P> ? [input?: CallInputWith<O, P>] : [input: CallInputWith<O, P>];
export type CallArgs<O extends OperationId> = OptionalInput<O, PathOf<O>>;

/** The body of the operation's success response; for 204 and redirects, the empty text. */
export type OkBody<O extends OperationId> = [SuccessBody<O>] extends [undefined] ? '' : SuccessBody<O>;

/** The response to a call of operation O: its success body or the error envelope. */
export type ApiResult<O extends OperationId> = HttpResult<OkBody<O> | ErrorEnvelope>;

/** Operations under `/api/org/{orgSlug}`. */
export type OrgOperationId = { [O in OperationId]: PathOf<O> extends { orgSlug: string } ? O : never }[OperationId];
/** The path parameters of an organization's operation, the organization's slug aside. */
export type OrgPathOf<O extends OrgOperationId> = [Exclude<keyof PathOf<O>, 'orgSlug'>] extends [never]
  ? never
  : Omit<PathOf<O>, 'orgSlug'>;
export type OrgCallArgs<O extends OrgOperationId> = OptionalInput<O, OrgPathOf<O>>;

interface Route {
  method: Uppercase<HttpMethod>;
  path: string;
}

let routes: Map<string, Route> | undefined;

/** The operation's method and path template, read once from openapi.yaml. */
function route(operationId: OperationId): Route {
  routes ??= new Map(
    listOperations().map((op) => [
      op.operationId,
      { method: op.method.toUpperCase() as Route['method'], path: op.path },
    ]),
  );
  const found = routes.get(operationId);
  if (!found) throw new Error(`openapi.yaml has no operation ${operationId}`);
  return found;
}

/** The path template with each `{name}` replaced by its percent-encoded value. */
export function fillPath(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${template}`);
    return encodeURIComponent(String(value));
  });
}

/** `?a=1&b=x` for the defined values (arrays repeat their key); empty when there are none. */
export function queryString(query: Record<string, unknown> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The method and URL path (with query) of a call of operation O. */
export function operationRequest(
  operationId: OperationId,
  input: { path?: Record<string, string | number>; query?: Record<string, unknown> } = {},
): { method: Route['method']; url: string } {
  const { method, path } = route(operationId);
  return { method, url: fillPath(path, input.path) + queryString(input.query) };
}

export type { QueryParams, RequestBody, Schema, SuccessBody } from '../../src/api/types.js';
