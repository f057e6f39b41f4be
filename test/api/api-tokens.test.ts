import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREA_SCOPES, type Scope, SCOPES } from '../../src/api-tokens/scopes.js';
import { loadOpenApiDocument } from '../../src/http/openapi-document.js';
import type { OrgCallArgs, OrgOperationId } from '../support/api-client.js';
import { expectError, expectOk } from '../support/assertions.js';
import { everyRow } from '../support/every-row.js';
import { type OrgActor, type OrgFixture, seedOrg } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';

let hub: TestHub;
let org: OrgFixture;
let other: OrgFixture;

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'tok');
  other = await seedOrg(hub, 'tok-other');
});
afterAll(() => hub.stop());

/** Creates a token as `actor` (signed in) and answers the secret with its row. */
async function createToken(actor: OrgActor, scopes: Scope[], extra: { expiresAt?: string; name?: string } = {}) {
  const res = await org.call(actor, 'createApiToken', {
    body: { name: extra.name ?? `${actor} token`, scopes, ...extra },
  });
  expectOk(res, 201);
  return res.body;
}

/** A typed call of one of the organization's operations with a bearer token and no cookie. */
const withToken = <O extends OrgOperationId>(token: string, operationId: O, ...input: OrgCallArgs<O>) => {
  const given = (input[0] ?? {}) as { headers?: Record<string, string> };
  const args = [
    { ...given, headers: { ...given.headers, authorization: `Bearer ${token}` } },
  ] as unknown as OrgCallArgs<O>;
  return hub.orgCall(org.slug, undefined, operationId, ...args);
};

describe('creating a token', () => {
  it('answers the token once, keeps only its SHA-256, and shows its first 12 characters', async () => {
    const created = await createToken('member', ['org:read']);
    expect(created.token).toMatch(/^hubt_[a-z2-7]{16}_[0-9A-Za-z]{43}$/);
    expect(created.token.slice(5, 21)).toBe(created.publicId);
    expect(created.prefix).toBe(created.token.slice(0, 12));
    expect(created.owner).toEqual({ type: 'member', id: org.userIds.member, displayName: expect.any(String) });
    expect(created).toMatchObject({
      name: 'member token',
      scopes: ['org:read'],
      createdBy: { id: org.userIds.member, displayName: expect.any(String) },
      expiresAt: null,
      lastUsedAt: null,
      revokedAt: null,
    });
    const rows = await everyRow(hub);
    expect(rows).not.toContain(created.token);
    expect(rows).toContain(createHash('sha256').update(created.token).digest('hex'));
    const listed = await org.call('member', 'listApiTokens');
    expectOk(listed);
    expect(JSON.stringify(listed.body)).not.toContain(created.token);
  });

  it('refuses unknown scopes, an empty list and an expiry in the past, creating nothing', async () => {
    const before = await hub.services.db('api_tokens').count<{ n: number }[]>({ n: '*' });
    for (const body of [
      { name: 'x', scopes: ['members:admin'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['org:read'], expiresAt: new Date(hub.clock.now().getTime() - 1000).toISOString() },
    ]) {
      expectError(await org.api('owner', 'POST', '/api-tokens', body), 400, 'validation_failed');
    }
    expect(await hub.services.db('api_tokens').count<{ n: number }[]>({ n: '*' })).toEqual(before);
  });

  it('takes every area scope at once, and the spec lists the scope table with room for all of it', async () => {
    const created = await createToken('owner', [...AREA_SCOPES]);
    expect([...created.scopes].sort()).toEqual([...AREA_SCOPES].sort());
    const { schemas } = loadOpenApiDocument().components as {
      schemas: Record<string, { enum?: string[]; properties?: Record<string, { maxItems?: number }> }>;
    };
    expect(schemas.Scope!.enum).toEqual([...SCOPES]);
    expect(schemas.CreateApiTokenRequest!.properties!.scopes!.maxItems).toBe(SCOPES.length);
    const tooMany = { name: 'x', scopes: [...SCOPES, SCOPES[0]] };
    expectError(await org.api('owner', 'POST', '/api-tokens', tooMany), 400, 'validation_failed');
  });

  it('refuses the runtime scope on a personal token (422), creating nothing', async () => {
    const before = await hub.services.db('api_tokens').count<{ n: number }[]>({ n: '*' });
    for (const scopes of [['runtime'], ['usage:write', 'runtime']] as Scope[][]) {
      const res = await org.call('owner', 'createApiToken', { body: { name: 'runtime', scopes } });
      expect(expectError(res, 422, 'runtime_scope_service_account_only').error.message).toContain('service account');
    }
    expect(await hub.services.db('api_tokens').count<{ n: number }[]>({ n: '*' })).toEqual(before);
  });

  it('cannot be done with a token, and tokens do not work on session-only operations', async () => {
    const { token } = await createToken('owner', ['org:write', 'members:write']);
    const res = await withToken(token, 'createApiToken', { body: { name: 'nested', scopes: ['org:read'] } });
    expectError(res, 403, 'token_scope_required');
    expectError(await withToken(token, 'listApiTokens'), 403, 'token_scope_required');
    const me = await hub.request('GET', '/api/me', { headers: { authorization: `Bearer ${token}` } });
    expectError(me, 401, 'unauthenticated');
  });
});

describe('calling with a token', () => {
  it('acts as its member within its scopes; write implies read', async () => {
    const { token } = await createToken('owner', ['members:write']);
    const read = await withToken(token, 'listMembers');
    expectOk(read);
    expect(read.body.members.map((m) => m.imOpenId)).toContain('tok-member');
    expectError(await withToken(token, 'listTeams'), 403, 'token_scope_required');
  });

  it("never exceeds its member's rights: a MEMBER's token gets the MEMBER's 403", async () => {
    const { token } = await createToken('member', ['members:read', 'org:read']);
    expectOk(await withToken(token, 'getOrganization'));
    expectError(await withToken(token, 'listMembers'), 403, 'org_admin_required');
  });

  it('holds the project MANAGE rule unchanged: an admin token without the grant is refused', async () => {
    const project = await org.call('owner', 'createProject', { body: { name: 'Token project' } });
    expectOk(project, 201);
    const team = await org.call('owner', 'createTeam', { body: { slug: 'tok-team', name: 'Token team' } });
    expectOk(team, 201);
    const owner = await createToken('owner', ['projects:write']);
    const admin = await createToken('admin', ['projects:write']);
    const grant = { body: { teamId: team.body.id, role: 'READ' as const } };
    const path = { path: { projectId: project.body.id } };
    expectOk(await withToken(owner.token, 'putProjectTeamAccess', { ...path, ...grant }));
    expectError(
      await withToken(admin.token, 'putProjectTeamAccess', { ...path, ...grant }),
      403,
      'project_manage_required',
    );
    expectOk(await withToken(admin.token, 'getProject', path));
  });

  it("answers 404 org_not_found on another organization's paths, even one its member belongs to", async () => {
    await hub.addMembership(other.id, 'tok-owner', 'ADMIN');
    const { token } = await createToken('owner', ['org:read']);
    const res = await hub.orgCall(other.slug, undefined, 'getOrganization', {
      headers: { authorization: `Bearer ${token}` },
    });
    expectError(res, 404, 'org_not_found');
  });

  it('needs no CSRF check: a bearer request from another origin is served', async () => {
    const { token } = await createToken('owner', ['teams:write']);
    const res = await hub.request('POST', `/api/org/${org.slug}/teams`, {
      headers: { authorization: `Bearer ${token}`, origin: 'https://evil.example' },
      body: { slug: 'csrf-free', name: 'Made by a script' },
    });
    expect(res.status).toBe(201);
  });

  it('answers 401 token_invalid for an unknown or malformed token', async () => {
    for (const value of [`Bearer hubt_${'x'.repeat(43)}`, 'Bearer nonsense', 'Basic dXNlcjpwYXNz', 'Bearer']) {
      const res = await hub.request('GET', `/api/org/${org.slug}`, { headers: { authorization: value } });
      expectError(res, 401, 'token_invalid');
    }
  });

  it('records lastUsedAt to the minute, at most once a minute', async () => {
    const created = await createToken('owner', ['org:read']);
    // Ten seconds into a minute, so the half minute below stays within it.
    hub.clock.advance(60_000 - (hub.clock.now().getTime() % 60_000) + 10_000);
    const minuteStart = () => new Date(hub.clock.now().getTime() - (hub.clock.now().getTime() % 60_000)).toISOString();
    const lastUsed = async () => {
      const list = await org.call('owner', 'listApiTokens');
      expectOk(list);
      return list.body.tokens.find((t) => t.id === created.id)!.lastUsedAt;
    };
    expectOk(await withToken(created.token, 'getOrganization'));
    const first = await lastUsed();
    expect(first).toBe(minuteStart());
    hub.clock.advance(30_000);
    expectOk(await withToken(created.token, 'getOrganization'));
    expect(await lastUsed()).toBe(first);
    hub.clock.advance(31_000);
    expectOk(await withToken(created.token, 'getOrganization'));
    expect(await lastUsed()).toBe(minuteStart());
    expect(await lastUsed()).not.toBe(first);
  });
});

describe('the end of a token', () => {
  it('stops working on the next request once revoked', async () => {
    const created = await createToken('member', ['org:read']);
    expectOk(await withToken(created.token, 'getOrganization'));
    const revoked = await org.call('member', 'revokeApiToken', { path: { tokenId: created.id } });
    expectOk(revoked);
    expect(revoked.body.revokedAt).toBe(hub.clock.now().toISOString());
    expectError(await withToken(created.token, 'getOrganization'), 401, 'token_invalid');
  });

  it('stops working once expired', async () => {
    const expiresAt = new Date(hub.clock.now().getTime() + 60_000).toISOString();
    const created = await createToken('member', ['org:read'], { expiresAt });
    expectOk(await withToken(created.token, 'getOrganization'));
    hub.clock.advance(60_000);
    expectError(await withToken(created.token, 'getOrganization'), 401, 'token_invalid');
  });

  it("is revoked with its member's membership", async () => {
    const member = await hub.addMembership(org.id, 'tok-leaver', 'MEMBER');
    void member;
    const cookie = await hub.login('tok-leaver');
    const res = await hub.orgCall(org.slug, cookie, 'createApiToken', {
      body: { name: 'leaver', scopes: ['org:read'] },
    });
    expectOk(res, 201);
    const leaverId = res.body.createdBy.id;
    expectOk(await withToken(res.body.token, 'getOrganization'));
    const revoked = await org.call('owner', 'revokeMember', { path: { userId: leaverId } });
    expectOk(revoked);
    expect(revoked.body.departure.stops.apiTokens.map((t) => t.id)).toEqual([res.body.id]);
    expectError(await withToken(res.body.token, 'getOrganization'), 401, 'token_invalid');
    // Coming back does not bring the token back.
    expectOk(await org.call('owner', 'addMember', { body: { imOpenId: 'tok-leaver', role: 'MEMBER' } }), 201);
    expectError(await withToken(res.body.token, 'getOrganization'), 401, 'token_invalid');
  });

  it("lets a member revoke only their own tokens, and an org admin anyone's", async () => {
    const owners = await createToken('owner', ['org:read']);
    expectError(await org.call('member', 'revokeApiToken', { path: { tokenId: owners.id } }), 404, 'token_not_found');
    const members = await createToken('member', ['org:read']);
    expectOk(await org.call('admin', 'revokeApiToken', { path: { tokenId: members.id } }));
    expectError(await other.call('owner', 'revokeApiToken', { path: { tokenId: owners.id } }), 404, 'token_not_found');
  });
});

describe('listing tokens', () => {
  it("shows a member their own tokens and an org admin everyone's, newest first, in pages", async () => {
    const mine = await org.call('member', 'listApiTokens');
    expectOk(mine);
    expect(new Set(mine.body.tokens.map((t) => t.createdBy.id))).toEqual(new Set([org.userIds.member]));
    const all = await org.call('owner', 'listApiTokens');
    expectOk(all);
    expect(new Set(all.body.tokens.map((t) => t.createdBy.id)).size).toBeGreaterThan(1);
    const created = all.body.tokens.map((t) => t.createdAt);
    expect(created).toEqual([...created].sort().reverse());

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await org.call('owner', 'listApiTokens', { query: { limit: 2, ...(cursor ? { cursor } : {}) } });
      expectOk(page);
      expect(page.body.tokens.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.tokens.map((t) => t.id));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all.body.tokens.map((t) => t.id));
  });
});

describe('the audit trail of tokens', () => {
  it('records creation and revocation by the member, and changes made through a token by the token', async () => {
    const created = await createToken('owner', ['teams:write', 'audit:read'], { name: 'ci' });
    const made = await withToken(created.token, 'createTeam', { body: { slug: 'by-token', name: 'By token' } });
    expectOk(made, 201);
    const events = await withToken(created.token, 'listAuditEvents', { query: { limit: 2 } });
    expectOk(events);
    const [teamEvent, tokenEvent] = events.body.events;
    expect(teamEvent).toMatchObject({
      action: 'createTeam',
      actor: { type: 'token', id: created.id, displayName: expect.stringContaining('"ci"') },
      requestId: made.headers.get('x-request-id'),
    });
    expect(tokenEvent).toMatchObject({
      action: 'createApiToken',
      actor: { type: 'user', id: org.userIds.owner },
      target: { type: 'api_token', id: created.id },
      changes: { before: null, after: { id: created.id, prefix: created.prefix } },
    });
    expect(JSON.stringify(events.body)).not.toContain(created.token);
  });
});
