// How a response body becomes a method's result.

/** `application/json` and any `…+json` media type. */
export function isJsonMediaType(contentType: string | null): boolean {
  if (!contentType) return false;
  const essence = (contentType.split(';', 1)[0] ?? '').trim().toLowerCase();
  return essence === 'application/json' || essence.endsWith('+json');
}

/**
 * A success body: parsed when the response says it is JSON, `undefined` when empty, its text
 * otherwise (including a body labelled JSON that does not parse: it is not JSON).
 */
export function decodeSuccessBody(response: Response, text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  if (!isJsonMediaType(response.headers.get('content-type'))) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * An error body as openapi-fetch hands it over: the text, already parsed when it is JSON.
 * Empty means absent.
 */
export function normalizeErrorBody(body: unknown): unknown {
  return body === '' ? undefined : body;
}

/** A redirect answer: in Node the 3xx itself, in browsers an opaque-redirect response. */
export function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}
