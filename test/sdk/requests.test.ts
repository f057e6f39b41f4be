// What the SDK sends: URL (orgSlug, path parameters, query), headers, credentials, body, and
// which fetch it uses.
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOrgAdminClient } from './support/client.js';
import { BASE, recordRequests, useMockServer } from './support/msw.js';

// Created before msw starts listening: the default fetch is looked up at each call, so msw
// still intercepts (openapi-fetch alone would have captured the unpatched fetch here).
const earlyClient = createOrgAdminClient({ baseUrl: BASE, orgSlug: 'acme' });

const server = useMockServer();
const client = (options: { orgSlug?: string; headers?: HeadersInit; credentials?: RequestCredentials } = {}) =>
  createOrgAdminClient({ baseUrl: BASE, orgSlug: 'acme', ...options });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('URL', () => {
  it('binds orgSlug and URL-encodes it', async () => {
    const requests = recordRequests(server);
    await client({ orgSlug: 'acme west/ü?' }).getOrganization();
    expect(requests[0]?.url).toBe(`${BASE}/api/org/acme%20west%2F%C3%BC%3F`);
  });

  it('fills path parameters by name, one encoded segment each', async () => {
    const requests = recordRequests(server);
    const c = client();
    await c.rotateProviderConnection({
      providerId: 'openai/eu west?#%',
      body: { baseUrl: 'https://api.example', authToken: 's' },
    });
    await c.putAgentRole({ roleId: 'lead.dev_1-x', body: { label: 'Lead' } });
    await c.getAgentSkillFiles({ name: 'pdf tools&co' });
    await c.revokeTeamMember({ teamId: 't/1', userId: 'u 1' });
    expect(requests.map((r) => `${r.method} ${r.pathname}`)).toEqual([
      'PUT /api/org/acme/provider-connections/openai%2Feu%20west%3F%23%25',
      'PUT /api/org/acme/agent-roles/lead.dev_1-x',
      'GET /api/org/acme/agent-skills/pdf%20tools%26co/files',
      'POST /api/org/acme/teams/t%2F1/members/u%201/revoke',
    ]);
  });

  it('refuses an empty, "." or ".." path parameter before sending anything', async () => {
    const requests = recordRequests(server);
    const c = client();
    for (const roleId of ['', '.', '..']) {
      await expect(c.putAgentRole({ roleId, body: { label: 'x' } })).rejects.toThrow(
        new TypeError(
          'putAgentRole: path parameter "roleId" must be a non-empty string other than "." and ".." ' +
            `(got ${JSON.stringify(roleId)})`,
        ),
      );
    }
    // A JavaScript caller that forgets a parameter or passes a number.
    await expect((c.getProject as (args: unknown) => Promise<unknown>)({})).rejects.toBeInstanceOf(TypeError);
    await expect((c.getProject as (args: unknown) => Promise<unknown>)({ projectId: 7 })).rejects.toBeInstanceOf(
      TypeError,
    );
    expect(requests).toEqual([]);
  });

  it('refuses a client without a usable orgSlug or baseUrl', () => {
    expect(() => createOrgAdminClient({ baseUrl: BASE, orgSlug: '' })).toThrow(TypeError);
    expect(() => createOrgAdminClient({ baseUrl: BASE, orgSlug: '..' })).toThrow(TypeError);
    expect(() => createOrgAdminClient({ orgSlug: 'acme' } as never)).toThrow(TypeError);
  });

  it('keeps a path prefix of baseUrl and drops its trailing slash', async () => {
    const requests = recordRequests(server);
    await createOrgAdminClient({ baseUrl: `${BASE}/hub/`, orgSlug: 'acme' }).getMe();
    expect(requests[0]?.url).toBe(`${BASE}/hub/api/me`);
  });
});

describe('query', () => {
  it('serializes the query', async () => {
    const requests = recordRequests(server, () => HttpResponse.json({ sessions: [] }));
    await client().listProjectSessions({ projectId: 'p1', query: { limit: 10 } });
    expect(requests[0]?.url).toBe(`${BASE}/api/org/acme/projects/p1/sessions?limit=10`);
  });

  it('omits empty values: undefined, null and the empty string', async () => {
    const requests = recordRequests(server);
    const c = client();
    await c.getUsageReport({ query: { from: '', to: undefined, folderId: 'f 1&x=y' } });
    await c.getUsageReport({ query: { from: '2026-11-01T00:00:00Z', to: '', folderId: null as unknown as string } });
    await c.getUsageReport({ query: { from: '', to: '', folderId: '' } });
    await c.getUsageReport();
    expect(requests.map((r) => r.search)).toEqual([
      '?folderId=f%201%26x%3Dy',
      '?from=2026-11-01T00%3A00%3A00Z',
      '',
      '',
    ]);
    expect(requests.map((r) => r.url).slice(2)).toEqual([`${BASE}/api/org/acme/usage`, `${BASE}/api/org/acme/usage`]);
  });
});

describe('headers, credentials and body', () => {
  it('asks for JSON and sends the client headers (a Node caller passes its cookie) on every request', async () => {
    const requests = recordRequests(server);
    const c = client({ headers: { cookie: 'hub_session=abc', 'x-request-source': 'sdk-test' } });
    await c.getMe();
    await c.listTeams();
    for (const r of requests) {
      expect([r.headers.get('accept'), r.headers.get('cookie'), r.headers.get('x-request-source')]).toEqual([
        'application/json',
        'hub_session=abc',
        'sdk-test',
      ]);
    }
  });

  it('lets per-call headers add to and override the client headers', async () => {
    const requests = recordRequests(server);
    const c = client({ headers: new Headers({ cookie: 'hub_session=abc', accept: 'application/json' }) });
    await c.getMe(undefined, { headers: { cookie: 'hub_session=other', 'x-trace': '1' } });
    expect([requests[0]?.headers.get('cookie'), requests[0]?.headers.get('x-trace')]).toEqual([
      'hub_session=other',
      '1',
    ]);
  });

  it('sends same-origin cookie credentials by default, or the configured policy', async () => {
    const requests = recordRequests(server);
    await client().getMe();
    await client({ credentials: 'include' }).getMe();
    expect(requests.map((r) => r.credentials)).toEqual(['same-origin', 'include']);
  });

  it('sends a JSON body with its content type, and no content type without a body', async () => {
    const requests = recordRequests(server);
    const c = client();
    await c.updateOrgSettings({ body: { membersCanCreateProjects: true } });
    await c.revokeMember({ userId: 'u1' });
    expect(requests.map((r) => [r.method, r.headers.get('content-type'), r.body])).toEqual([
      ['PATCH', 'application/json', '{"membersCanCreateProjects":true}'],
      ['POST', null, ''],
    ]);
  });
});

describe('API token', () => {
  it('sends Authorization: Bearer <token> on every request, raw included, beside the other headers', async () => {
    const requests = recordRequests(server);
    const c = createOrgAdminClient({
      baseUrl: BASE,
      orgSlug: 'acme',
      token: 'hubt_abc123',
      headers: { 'x-request-source': 'sdk-test' },
    });
    await c.listMembers();
    await c.addMember({ body: { imOpenId: 'ou_1', role: 'MEMBER' } });
    await c.getMe(undefined, { headers: { 'x-trace': '1' } });
    await c.raw.GET('/api/org/{orgSlug}/settings', { params: { path: { orgSlug: 'acme' } } });
    expect(
      requests.map((r) => [r.headers.get('authorization'), r.headers.get('accept'), r.headers.get('x-request-source')]),
    ).toEqual(Array(4).fill(['Bearer hubt_abc123', 'application/json', 'sdk-test']));
    expect(requests[2]?.headers.get('x-trace')).toBe('1');
    // No cookie of its own: in a browser the same-origin cookie may still go along; the token decides.
    expect(requests.map((r) => r.headers.get('cookie'))).toEqual([null, null, null, null]);
  });

  it('sends no Authorization header without a token', async () => {
    const requests = recordRequests(server);
    await client().getMe();
    expect(requests[0]?.headers.has('authorization')).toBe(false);
  });

  it('refuses a token that is not a non-empty string, or a second Authorization in headers', () => {
    for (const token of ['', 42, null]) {
      expect(() => createOrgAdminClient({ baseUrl: BASE, orgSlug: 'acme', token: token as string })).toThrow(
        new TypeError('createOrgAdminClient: token must be a non-empty string such as "hubt_…"'),
      );
    }
    for (const headers of [{ Authorization: 'Bearer other' }, new Headers({ authorization: 'Basic x' })]) {
      expect(() => createOrgAdminClient({ baseUrl: BASE, orgSlug: 'acme', token: 'hubt_1', headers })).toThrow(
        /either as `token` or in `headers`/,
      );
    }
  });
});

describe('fetch', () => {
  it('uses the global fetch of the moment of the call', async () => {
    server.use(http.get(`${BASE}/api/me`, () => HttpResponse.json({ via: 'msw' })));
    await expect(earlyClient.getMe()).resolves.toEqual({ via: 'msw' });
    const stub = vi.fn(async (_request: Request) => Response.json({ via: 'stub' }));
    vi.stubGlobal('fetch', stub);
    await expect(earlyClient.getMe()).resolves.toEqual({ via: 'stub' });
    expect(stub).toHaveBeenCalledOnce();
  });

  it('uses a caller-supplied fetch with the whole request', async () => {
    const seen: Request[] = [];
    const c = createOrgAdminClient({
      baseUrl: 'https://hub.example',
      orgSlug: 'acme',
      headers: { cookie: 'hub_session=abc' },
      fetch: async (request) => {
        seen.push(request);
        return Response.json({ membersCanCreateProjects: false });
      },
    });
    await expect(c.getOrgSettings()).resolves.toEqual({ membersCanCreateProjects: false });
    expect([seen[0]?.method, seen[0]?.url, seen[0]?.headers.get('cookie')]).toEqual([
      'GET',
      'https://hub.example/api/org/acme/settings',
      'hub_session=abc',
    ]);
  });

  it('exposes the typed openapi-fetch client as raw, with the same base URL and headers', async () => {
    const requests = recordRequests(server, () => HttpResponse.json({ membersCanCreateProjects: true }));
    const c = client({ headers: { cookie: 'hub_session=abc' } });
    const { data, response } = await c.raw.GET('/api/org/{orgSlug}/settings', {
      params: { path: { orgSlug: 'acme' } },
    });
    expect([data, response.status, requests[0]?.headers.get('cookie')]).toEqual([
      { membersCanCreateProjects: true },
      200,
      'hub_session=abc',
    ]);
  });
});
