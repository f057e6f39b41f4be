// The one error the client throws for an HTTP answer outside 200–299.

// A registry symbol, so `instanceof ApiError` also holds for an error thrown by another copy
// of this package (the ESM and the CommonJS build loaded side by side, or two versions).
const API_ERROR = Symbol.for('@agent-hub/org-admin-sdk/ApiError');

export interface ApiErrorInit<Code extends string = string> {
  status: number;
  code: Code;
  message: string;
  body: unknown;
  headers?: Headers | undefined;
}

/**
 * An HTTP response with a status outside 200–299. The service always answers errors with
 * `{"error": {"code", "message", "details"?}}`; `code` and `message` are taken from there,
 * and fall back to `http_error` and `HTTP <status>` when the body does not carry them.
 *
 * `Code` is the type of `code`. This module cannot name the contract's codes (the generated
 * types are not part of it), so the package entry exports the class as `ApiErrorClass` of
 * the contract's `ErrorCode | 'http_error'`; `code` is then a union that narrows.
 */
export class ApiError<Code extends string = string> extends Error {
  override readonly name = 'ApiError';
  /** The HTTP status. */
  readonly status: number;
  /** `error.code` of the body (see the codes in openapi.yaml), or `http_error`. */
  readonly code: Code;
  /** The body as received: parsed JSON, else its text; `undefined` when empty. */
  readonly body: unknown;
  /** The response headers, e.g. `Retry-After` on 429 `rate_limited`. */
  readonly headers: Headers;

  constructor(init: ApiErrorInit<Code>) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.body = init.body;
    this.headers = init.headers ?? new Headers();
    Object.defineProperty(this, API_ERROR, { value: true });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // Subclasses keep the ordinary prototype check.
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class `instanceof` asked about.
    if (this !== ApiError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[API_ERROR] === true;
  }
}

/**
 * The class `ApiError` typed for one set of codes: `instanceof` narrows to `ApiError<Code>`,
 * and `new` takes only those codes.
 */
export interface ApiErrorClass<Code extends string> {
  new (init: ApiErrorInit<Code>): ApiError<Code>;
  readonly prototype: ApiError<Code>;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The ApiError for a non-2xx response whose body has already been read (`body`). */
export function apiErrorFrom(response: Response, body: unknown): ApiError {
  const envelope = field(body, 'error');
  return new ApiError({
    status: response.status,
    code: nonEmptyString(field(envelope, 'code')) ?? 'http_error',
    message: nonEmptyString(field(envelope, 'message')) ?? `HTTP ${response.status}`,
    body,
    headers: response.headers,
  });
}
