/**
 * The one place that knows about HTTP: a same-origin openapi-fetch client typed by the contract
 * the SDK generates, and openapi-react-query over it (query keys are `[method, path, init]`).
 */
import type { components, paths } from '@agent-hub/org-admin-sdk';
import createFetchClient, { type Middleware } from 'openapi-fetch';
import createClient from 'openapi-react-query';

export type Schemas = components['schemas'];
/** The contract's error envelope; `code` may also be `http_<status>` for a failure not from the service. */
export type ApiErrorBody = {
  error: Omit<Schemas['Error']['error'], 'code'> & { code: Schemas['ErrorCode'] | `http_${number}` };
};

/** Every failure reaches the screens as the contract's `{error: {code, message}}`, even a proxy's HTML 502. */
const errorsAsEnvelopes: Middleware = {
  async onResponse({ response }) {
    if (response.ok || (response.headers.get('content-type') ?? '').includes('json')) return undefined;
    const body: ApiErrorBody = {
      error: {
        code: `http_${response.status}`,
        message: `The server answered ${response.status} ${response.statusText}`.trim(),
      },
    };
    return new Response(JSON.stringify(body), {
      status: response.status,
      headers: { 'content-type': 'application/json' },
    });
  },
};

// Typed for JSON answers only: the app reads no other media type (the audit export is a download).
export const fetchClient = createFetchClient<paths, 'application/json'>({ baseUrl: '', credentials: 'same-origin' });
fetchClient.use(errorsAsEnvelopes);

export const $api = createClient(fetchClient);

function isEnvelope(e: unknown): e is ApiErrorBody {
  return typeof e === 'object' && e !== null && 'error' in e && typeof (e as ApiErrorBody).error?.message === 'string';
}

/** The server's error code (`last_owner`, `project_access_denied`, …), if the failure came from it. */
export function errorCode(e: unknown): string | undefined {
  return isEnvelope(e) ? e.error.code : undefined;
}

/** What to tell the person: the server's message, else the browser's (network down, …). */
export function errorMessage(e: unknown): string {
  if (isEnvelope(e)) return e.error.message;
  if (e instanceof Error) return e.message;
  return 'Something went wrong.';
}

/** Path parameters of every `/api/org/{orgSlug}/…` call. */
export const orgPath = (orgSlug: string) => ({ params: { path: { orgSlug } } });

/**
 * The key of every answer of a GET endpoint in one organization, whatever its other parameters: keys
 * are `[method, path, init]`, and TanStack matches a key by its leading items and an init by the
 * fields it names. An endpoint's own file builds it, beside its query-options factory.
 */
export const orgQueryKey = (path: keyof paths, orgSlug: string) => ['get', path, orgPath(orgSlug)] as const;

/**
 * The JSON answer of an operation the contract also answers as CSV (`text/csv`, which the app
 * downloads by link, never through the client): the client asks for JSON, so a text body would be
 * a broken contract, reported as such instead of shown as data.
 */
export function jsonAnswer<T>(data: T): Exclude<T, string> {
  if (typeof data === 'string') throw new Error('The server answered text where JSON was expected.');
  return data as Exclude<T, string>;
}
