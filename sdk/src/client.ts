// Builds a client from an operation table: one method per operation, each a thin call through
// openapi-fetch that binds `orgSlug`, checks and encodes path parameters, drops empty query
// values, and turns the response into a result or an ApiError.
import createClient, { createQuerySerializer, mergeHeaders } from 'openapi-fetch';
import { apiErrorFrom } from './errors.js';
import type { CallOptions, OperationClient, OperationRoute, OperationTable } from './operation-types.js';
import { decodeSuccessBody, isRedirect, normalizeErrorBody } from './response.js';

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
  /** Headers sent with every request, e.g. `{ cookie: 'hub_session=…' }` in Node. */
  headers?: HeadersInit | undefined;
  /** Cookie policy of browser requests. Defaults to `'same-origin'`. */
  credentials?: RequestCredentials | undefined;
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
    fetch: fetchImpl,
    // Errors come back as JSON (not the HTML page a browser navigation gets) unless overridden.
    headers: mergeHeaders({ accept: 'application/json' }, options.headers),
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

  const client: Record<string, unknown> = { raw };
  for (const [operationId, route] of Object.entries(table)) {
    const names = pathParamNames(route.path);
    client[operationId] = (args?: MethodArgs, callOptions?: CallOptions) =>
      call(operationId, route, names, args, callOptions);
  }
  return client as OperationClient<Operations, Paths>;
}
