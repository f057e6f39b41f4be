import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApiDocument, listOperations } from '../../src/http/openapi-document.js';
import { okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';

/**
 * A session with every kind of secret the service hands out — a login link, its session cookie,
 * an invitation link opened in the app and through the API and accepted, an API token used — and
 * then every line the server logged, searched for each of them.
 */

let hub: TestHub;
let org: OrgFixture;

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'logs');
});
afterAll(() => hub.stop());

interface RequestLine {
  msg: string;
  method?: string;
  path?: string;
  status?: number;
}
const requestLines = () =>
  hub.logLines.map((line) => JSON.parse(line) as RequestLine).filter((line) => line.msg === 'request');

describe('the access log', () => {
  it('holds no login link, cookie, invitation token or API token of a whole session', async () => {
    const secrets: Record<string, string> = {};
    // A login link, and the session cookie it sets.
    const { db, users, clock } = hub.services;
    await users.ensure(db, { imOpenId: 'ou-invitee' }, clock.now());
    const link = await hub.loginToken('ou-invitee');
    secrets.loginLink = link;
    expect((await hub.call('login', { query: { token: 'not-a-login-token' } })).status).toBe(401);
    const login = await hub.call('login', { query: { token: link } });
    expect(login.status).toBe(303);
    const cookie = login.headers.get('set-cookie')!.split(';', 1)[0]!;
    secrets.sessionCookie = cookie.split('=')[1]!;
    secrets.ownerCookie = org.cookies.owner.split('=')[1]!;

    // An invitation: created, opened in the app and through the API (in any case Express routes),
    // accepted, then asked for again and on a path no route answers.
    const created = await okBody(org.call('owner', 'createInvitation', { body: { role: 'ADMIN' } }), 201);
    const token = created.url.split('/invite/')[1]!;
    secrets.invitationToken = token;
    await hub.request('GET', `/invite/${token}`, { cookie, headers: { accept: 'text/html' } });
    await okBody(hub.call('getInvitation', { path: { token }, cookie }));
    await hub.request('GET', `/API/Invitations/${token}`, { cookie });
    await okBody(hub.call('acceptInvitation', { path: { token }, cookie }));
    await hub.request('POST', `/api/invitations/${token}/accept`, { cookie });
    await hub.request('DELETE', `/api/invitations/${token}`, { cookie });
    await hub.request('GET', `/api/invitations/${token}/no-such-thing`, { cookie });
    await hub.request('GET', `/invite/${token}/`, { cookie, headers: { accept: 'text/html' } });

    // An API token, created and used, and a refused one.
    const { token: apiToken } = await okBody(
      org.call('owner', 'createApiToken', { body: { name: 'script', scopes: ['org:read'] } }),
      201,
    );
    secrets.apiToken = apiToken;
    secrets.apiTokenSecret = apiToken.slice(12);
    await okBody(
      hub.orgCall(org.slug, undefined, 'getOrganization', { headers: { authorization: `Bearer ${apiToken}` } }),
    );
    const refused = `hubt_${'q'.repeat(43)}`;
    secrets.refusedToken = refused.slice(5);
    await hub.orgCall(org.slug, undefined, 'getOrganization', { headers: { authorization: `Bearer ${refused}` } });

    expect(hub.logLines.length).toBeGreaterThan(10);
    for (const line of hub.logLines) {
      for (const [name, secret] of Object.entries(secrets)) {
        expect(line.toLowerCase(), `${name} in a log line`).not.toContain(secret.toLowerCase());
      }
    }
    // The invitation's requests are there, under their templates.
    const paths = requestLines().map((line) => `${line.method} ${line.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'GET /invite/{token}',
        'GET /api/invitations/{token}',
        'POST /api/invitations/{token}/accept',
        'DELETE /api/invitations/{token}',
        'GET /api/invitations/{token}/no-such-thing',
        'GET /invite/{token}/',
        'GET /auth/login',
      ]),
    );
    // Paths without secrets are logged as they are.
    expect(paths).toContain(`GET /api/org/${org.slug}`);
  });

  it('marks every path parameter that carries a token as secret in openapi.yaml', () => {
    for (const { operationId, path, operation } of listOperations(loadOpenApiDocument())) {
      if (!path.includes('{token}')) continue;
      expect(operation['x-secret-path-params'], operationId).toEqual(['token']);
    }
  });
});
