// How the SDK turns responses into results and errors (docs/decisions.md, "The SDK's answers"),
// against an msw server.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../sdk/src/errors.js';
import { createOrgAdminClient } from './support/client.js';
import { BASE, recordRequests, useMockServer } from './support/msw.js';

const server = useMockServer();
const client = () => createOrgAdminClient({ baseUrl: BASE, orgSlug: 'acme' });

const project = {
  id: 'p1',
  name: 'Apollo',
  folder: null,
  archivedAt: null,
  workspaceDir: '/data/workspaces/p1',
  createdAt: '2026-11-22T10:00:00.000Z',
  createdBy: { id: 'u1', displayName: 'Ann' },
  binding: null,
};

/** The rejection of `promise`, which must be an ApiError. */
async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => expect.fail('expected the call to reject'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('success bodies', () => {
  it('returns a JSON body parsed', async () => {
    server.use(http.get(`${BASE}/api/org/acme/projects/p1`, () => HttpResponse.json(project)));
    await expect(client().getProject({ projectId: 'p1' })).resolves.toEqual(project);
  });

  it('returns the JSON body of a 201', async () => {
    const member = {
      userId: 'u2',
      imOpenId: 'ou_2',
      displayName: 'Bo',
      avatarUrl: null,
      role: 'ADMIN',
      createdAt: '2026-11-22T10:00:00.000Z',
    };
    server.use(http.post(`${BASE}/api/org/acme/members`, () => HttpResponse.json(member, { status: 201 })));
    await expect(client().addMember({ body: { imOpenId: 'ou_2', role: 'ADMIN' } })).resolves.toEqual(member);
  });

  it('parses a +json media type', async () => {
    server.use(
      http.get(`${BASE}/api/org/acme/settings`, () =>
        HttpResponse.text('{"membersCanCreateProjects":true}', {
          headers: { 'content-type': 'application/vnd.hub+json; charset=utf-8' },
        }),
      ),
    );
    await expect(client().getOrgSettings()).resolves.toEqual({ membersCanCreateProjects: true });
  });

  it('resolves to undefined on 204', async () => {
    server.use(http.post(`${BASE}/auth/logout`, () => new HttpResponse(null, { status: 204 })));
    await expect(client().logout()).resolves.toBeUndefined();
  });

  it('resolves to undefined on an empty 200, with or without a JSON content type', async () => {
    server.use(
      http.post(`${BASE}/api/org/acme/teams/t1/archive`, () => new HttpResponse(null, { status: 200 })),
      http.post(
        `${BASE}/api/org/acme/folders/f1/archive`,
        () =>
          new HttpResponse('', { status: 200, headers: { 'content-type': 'application/json', 'content-length': '0' } }),
      ),
    );
    await expect(client().archiveTeam({ teamId: 't1' })).resolves.toBeUndefined();
    await expect(client().archiveFolder({ folderId: 'f1' })).resolves.toBeUndefined();
  });

  it('returns a text/plain body as its text, even when it looks like JSON', async () => {
    server.use(
      http.get(`${BASE}/api/org/acme/explorer`, () => HttpResponse.text('all good')),
      http.get(`${BASE}/api/org/acme/my-projects`, () => HttpResponse.text('{"projects":[]}')),
    );
    await expect(client().getExplorer()).resolves.toBe('all good');
    await expect(client().listMyProjects()).resolves.toBe('{"projects":[]}');
  });

  it('returns the text of a body labelled JSON that does not parse', async () => {
    server.use(
      http.get(
        `${BASE}/api/org/acme/teams`,
        () => new HttpResponse('{"teams": [', { headers: { 'content-type': 'application/json' } }),
      ),
    );
    await expect(client().listTeams()).resolves.toBe('{"teams": [');
  });
});

describe('errors', () => {
  it('throws ApiError with the code, message and body of the error envelope', async () => {
    const body = {
      error: {
        code: 'validation_failed',
        message: 'request body is invalid',
        details: [{ path: '/body/role', message: 'must be one of OWNER, ADMIN, MEMBER' }],
      },
    };
    server.use(http.post(`${BASE}/api/org/acme/members`, () => HttpResponse.json(body, { status: 400 })));
    const error = await apiError(client().addMember({ body: { imOpenId: 'ou_2', role: 'MEMBER' } }));
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 400,
      code: 'validation_failed',
      message: 'request body is invalid',
      body,
    });
  });

  it('keeps the response headers (Retry-After on 429)', async () => {
    server.use(
      http.get(`${BASE}/api/org/acme/teams`, () =>
        HttpResponse.json(
          { error: { code: 'rate_limited', message: 'slow down' } },
          { status: 429, headers: { 'retry-after': '17' } },
        ),
      ),
    );
    // Without the client's retry (retry.test.ts), which would wait the 17 s twice first.
    const error = await apiError(createOrgAdminClient({ baseUrl: BASE, orgSlug: 'acme', retry: false }).listTeams());
    expect([error.status, error.code, error.headers.get('retry-after')]).toEqual([429, 'rate_limited', '17']);
  });

  it('uses the code http_error when the body has no error.code', async () => {
    server.use(
      http.get(`${BASE}/api/org/acme/projects/p1`, () =>
        HttpResponse.json({ error: { message: 'gone fishing' } }, { status: 503 }),
      ),
    );
    const error = await apiError(client().getProject({ projectId: 'p1' }));
    expect(error).toMatchObject({
      status: 503,
      code: 'http_error',
      message: 'gone fishing',
      body: { error: { message: 'gone fishing' } },
    });
  });

  it('uses the message HTTP <status> when the body has no error.message', async () => {
    server.use(
      http.get(`${BASE}/api/org/acme/projects/p1`, () =>
        HttpResponse.json({ error: { code: 'project_not_found' } }, { status: 404 }),
      ),
    );
    const error = await apiError(client().getProject({ projectId: 'p1' }));
    expect(error).toMatchObject({ status: 404, code: 'project_not_found', message: 'HTTP 404' });
  });

  it('falls back on both for JSON that is not an envelope', async () => {
    server.use(
      http.get(`${BASE}/api/org/acme/projects/p1`, () =>
        HttpResponse.json({ message: 'nope', code: 'x' }, { status: 409 }),
      ),
    );
    const error = await apiError(client().getProject({ projectId: 'p1' }));
    expect(error).toMatchObject({
      status: 409,
      code: 'http_error',
      message: 'HTTP 409',
      body: { message: 'nope', code: 'x' },
    });
  });

  it('keeps a non-JSON error body as text', async () => {
    server.use(
      http.get(`${BASE}/api/org/acme/projects/p1`, () => HttpResponse.html('<h1>Bad gateway</h1>', { status: 502 })),
    );
    const error = await apiError(client().getProject({ projectId: 'p1' }));
    expect(error).toMatchObject({ status: 502, code: 'http_error', message: 'HTTP 502', body: '<h1>Bad gateway</h1>' });
  });

  it('has an undefined body when the error body is empty', async () => {
    server.use(
      http.get(`${BASE}/api/org/acme/projects/p1`, () => new HttpResponse(null, { status: 500 })),
      http.get(
        `${BASE}/api/org/acme/projects/p2`,
        () => new HttpResponse('', { status: 500, headers: { 'content-type': 'text/plain' } }),
      ),
    );
    for (const projectId of ['p1', 'p2']) {
      const error = await apiError(client().getProject({ projectId }));
      expect(error).toMatchObject({ status: 500, code: 'http_error', message: 'HTTP 500', body: undefined });
    }
  });

  it('propagates a network error as it is, not as an ApiError', async () => {
    server.use(http.get(`${BASE}/api/me`, () => HttpResponse.error()));
    const error = await client()
      .getMe()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(ApiError);
  });

  it('rejects with the AbortError when the call is aborted', async () => {
    server.use(http.get(`${BASE}/api/me`, () => new Promise<Response>(() => {})));
    const controller = new AbortController();
    const pending = client().getMe(undefined, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('recognises an ApiError from another copy of the package, but subclasses check the prototype', () => {
    const foreign = Object.defineProperty(new Error('x'), Symbol.for('@agent-hub/org-admin-sdk/ApiError'), {
      value: true,
    });
    expect(foreign).toBeInstanceOf(ApiError);
    expect(new Error('x')).not.toBeInstanceOf(ApiError);
    class RetryableError extends ApiError {}
    const init = { status: 503, code: 'http_error', message: 'HTTP 503', body: undefined };
    expect(new RetryableError(init)).toBeInstanceOf(RetryableError);
    expect(new RetryableError(init)).toBeInstanceOf(ApiError);
    expect(new ApiError(init)).not.toBeInstanceOf(RetryableError);
  });
});

describe('login (GET /auth/login, a 303)', () => {
  it('does not follow the redirect and resolves to undefined', async () => {
    const requests = recordRequests(server, () => new HttpResponse(null, { status: 303, headers: { location: '/' } }));
    await expect(client().login({ query: { token: 'tok en' } })).resolves.toBeUndefined();
    // Following it would have fetched `/` (the landing page): only the login request went out.
    expect(requests.map((r) => [r.method, r.pathname, r.search, r.redirect])).toEqual([
      ['GET', '/auth/login', '?token=tok%20en', 'manual'],
    ]);
  });

  it('throws ApiError for a used, expired or unknown token', async () => {
    server.use(
      http.get(`${BASE}/auth/login`, () =>
        HttpResponse.json(
          { error: { code: 'unauthenticated', message: 'This login link is used, expired or unknown.' } },
          { status: 401 },
        ),
      ),
    );
    const error = await apiError(client().login({ query: { token: 'stale' } }));
    expect([error.status, error.code]).toEqual([401, 'unauthenticated']);
  });

  it('treats only a redirect as success: another non-2xx still throws', async () => {
    server.use(http.get(`${BASE}/auth/login`, () => new HttpResponse(null, { status: 500 })));
    await expect(client().login({ query: { token: 't' } })).rejects.toBeInstanceOf(ApiError);
  });
});
