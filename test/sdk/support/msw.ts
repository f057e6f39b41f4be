import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** The origin every mocked request goes to. */
export const BASE = 'http://hub.test';

/** An msw server for the calling test file; any request without a handler fails the test. */
export function useMockServer() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

export interface Recorded {
  method: string;
  /** The URL exactly as sent (percent-encoding kept). */
  url: string;
  pathname: string;
  search: string;
  headers: Headers;
  credentials: RequestCredentials;
  redirect: RequestRedirect;
  body: string;
}

/**
 * Answers every request to BASE with `respond()` (default: 200 `{}`) and records it.
 * Returns the list the requests are recorded into.
 */
export function recordRequests(
  server: ReturnType<typeof setupServer>,
  respond: () => Response = () => HttpResponse.json({}),
): Recorded[] {
  const recorded: Recorded[] = [];
  server.use(
    http.all(`${BASE}/*`, async ({ request }) => {
      const url = new URL(request.url);
      recorded.push({
        method: request.method,
        url: request.url,
        pathname: url.pathname,
        search: url.search,
        headers: request.headers,
        credentials: request.credentials,
        redirect: request.redirect,
        body: await request.text(),
      });
      return respond();
    }),
  );
  return recorded;
}
