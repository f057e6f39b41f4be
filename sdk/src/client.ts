// Builds a client from an operation table: one method per operation, each a thin call through
// openapi-fetch that binds `orgSlug`, checks and encodes path parameters, drops empty query
// values, and turns the response into a result or an ApiError. Every request goes through
// one fetch that retries 429 answers (retry.ts); `paginate` walks paged lists (paginate.ts).
import createClient, { createQuerySerializer, mergeHeaders } from 'openapi-fetch';
import { apiErrorFrom } from './errors.js';
import type { CallOptions, OperationClient, OperationRoute, OperationTable } from './operation-types.js';
import { paginate } from './paginate.js';
import { decodeSuccessBody, isRedirect, normalizeErrorBody } from './response.js';
import { type RetryOptions, retrying, retrySettings } from './retry.js';

export interface OrgAdminClientOptions {
  /**
   * Origin (and optional path prefix) of the service, e.g. `https://hub.example.com`. In a
   * browser app served by the service itself, `window.location.origin`.
   */
  baseUrl: string;
  /** The organization every org-scoped call addresses; the client fills `{orgSlug}` in. */
  orgSlug: string;
  /**
   * The fetch implementation. Defaults to `globalThis.fetch`, looked up at each call (so a
   * polyfill or a test interceptor installed after the client was created is used).
   */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /**
   * An API token (`hubt_…`, from `createApiToken` or `hub token create`), sent as
   * `Authorization: Bearer <token>` with every request. For servers and scripts; it works in
   * browsers too. Without it, the client relies on the session cookie.
   */
  token?: string | undefined;
  /** Headers sent with every request, e.g. `{ cookie: 'hub_session=…' }` in Node. */
  headers?: HeadersInit | undefined;
  /** Cookie policy of browser requests. Defaults to `'same-origin'`. */
  credentials?: RequestCredentials | undefined;
  /**
   * Retry of 429 `rate_limited` answers that carry `Retry-After`: by default up to 2 retries,
   * each after the time the service asks for when that is at most 30 s (else the call throws
   * the 429 at once). `false` turns it off; an object changes the limits.
   */
  retry?: boolean | RetryOptions | undefined;
}

type RawResult = { data?: unknown; error?: unknown; response: Response };
type RawRequest = (method: string, path: string, init: Record<string, unknown>) => Promise<RawResult>;
type MethodArgs = Record<string, unknown> & { query?: unknown; body?: unknown };

const serializeQuery = createQuerySerializer();

/** Query values that are `undefined`, `null` or `''` are left out of the URL. */
function withoutEmptyValues(query: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') kept[name] = value;
  }
  return kept;
}

/**
 * A path parameter becomes one encoded path segment. An empty value, `.` or `..` would
 * address another resource (`/members//revoke`, `/provider-connections/..`), so the call
 * is refused before anything is sent.
 */
function pathSegment(where: string, name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
    throw new TypeError(
      `${where}: path parameter "${name}" must be a non-empty string other than "." and ".." (got ` +
        `${JSON.stringify(value)})`,
    );
  }
  return value;
}

/** The client's own headers: `Accept`, the bearer token, then the caller's `headers`. */
function clientHeaders(options: OrgAdminClientOptions): HeadersInit {
  const { token, headers } = options;
  if (token === undefined) return mergeHeaders({ accept: 'application/json' }, headers);
  if (typeof token !== 'string' || token === '') {
    throw new TypeError('createOrgAdminClient: token must be a non-empty string such as "hubt_…"');
  }
  if (new Headers(headers).has('authorization')) {
    throw new TypeError('createOrgAdminClient: pass the token either as `token` or in `headers`, not both');
  }
  return mergeHeaders({ accept: 'application/json', authorization: `Bearer ${token}` }, headers);
}

function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1] as string);
}

/**
 * A client with one method per entry of `table`. `Operations` and `Paths` are the generated
 * `operations` and `paths` types of the same openapi.yaml the table was derived from.
 */
export function bindClient<Operations, Paths extends {}>(
  table: OperationTable,
  options: OrgAdminClientOptions,
): OperationClient<Operations, Paths> {
  if (typeof options?.baseUrl !== 'string') {
    throw new TypeError('createOrgAdminClient: baseUrl must be a string such as "https://hub.example.com"');
  }
  const orgSlug = pathSegment('createOrgAdminClient', 'orgSlug', options.orgSlug);
  const fetchImpl = options.fetch ?? ((request: Request) => globalThis.fetch(request));

  const raw = createClient<Paths>({
    baseUrl: options.baseUrl,
    fetch: retrying(fetchImpl, retrySettings(options.retry)),
    // Errors come back as JSON (not the HTML page a browser navigation gets) unless overridden.
    headers: clientHeaders(options),
    credentials: options.credentials ?? 'same-origin',
    querySerializer: (query) => serializeQuery(withoutEmptyValues(query as Record<string, unknown>)),
  });
  const request = raw.request as unknown as RawRequest;

  async function call(
    operationId: string,
    route: OperationRoute,
    names: string[],
    args: MethodArgs | undefined,
    callOptions: CallOptions | undefined,
  ) {
    const { query, body, ...pathArgs } = args ?? {};
    const path: Record<string, string> = {};
    for (const name of names) {
      path[name] = name === 'orgSlug' ? orgSlug : pathSegment(operationId, name, pathArgs[name]);
    }
    const init: Record<string, unknown> = {
      params: { path, query: query ?? {} },
      // The body is decoded here (by media type), not by openapi-fetch (which assumes JSON).
      parseAs: 'text',
    };
    if (body !== undefined) init.body = body;
    if (route.redirect) init.redirect = route.redirect;
    if (callOptions?.signal) init.signal = callOptions.signal;
    if (callOptions?.headers) init.headers = callOptions.headers;

    const { data, error, response } = await request(route.method, route.path, init);
    if (response.ok) return decodeSuccessBody(response, data as string | undefined);
    if (route.redirect && isRedirect(response)) return undefined;
    throw apiErrorFrom(response, normalizeErrorBody(error));
  }

  const client: Record<string, unknown> = { raw, paginate };
  for (const [operationId, route] of Object.entries(table)) {
    const names = pathParamNames(route.path);
    client[operationId] = (args?: MethodArgs, callOptions?: CallOptions) =>
      call(operationId, route, names, args, callOptions);
  }
  return client as OperationClient<Operations, Paths>;
}
