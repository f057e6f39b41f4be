import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/assertions.js';
import { TestOpenIdProvider } from '../support/openid-provider.js';
import { setProvider, signInHub, signInThrough, testBrowser } from '../support/sign-in-flow.js';
import { TEST_ORIGIN, type TestHub } from '../support/test-hub.js';

const SECRET = 'oidc-client-secret-for-tests';
let hub: TestHub;
let idp: TestOpenIdProvider;
const owners: Record<'a' | 'b', string> = { a: '', b: '' };

beforeAll(async () => {
  hub = await signInHub();
  idp = await TestOpenIdProvider.start({
    clientId: 'hub',
    clientSecret: SECRET,
    redirectUris: [`${TEST_ORIGIN}/auth/corp/callback`],
  });
  await setProvider(hub, { id: 'corp', kind: 'oidc', issuer: idp.issuer, linksImOpenId: true }, SECRET);
  for (const org of ['a', 'b'] as const) {
    await hub.createOrg(`profile-${org}`, `profile-${org}-owner`);
    owners[org] = await hub.login(`profile-${org}-owner`);
  }
});

afterAll(async () => {
  await idp?.stop();
  await hub?.stop();
});

const orgOf = (org: 'a' | 'b') => `profile-${org}`;

async function shownIn(org: 'a' | 'b', imOpenId: string) {
  const res = await hub.orgCall(orgOf(org), owners[org], 'listMembers');
  expectOk(res);
  const member = res.body.members.find((m) => m.imOpenId === imOpenId)!;
  return { displayName: member.displayName, avatarUrl: member.avatarUrl };
}

async function add(org: 'a' | 'b', body: { imOpenId: string; displayName?: string; avatarUrl?: string }) {
  const res = await hub.orgCall(orgOf(org), owners[org], 'addMember', { body: { ...body, role: 'ADMIN' } });
  expectOk(res, 201);
  return res.body;
}

/** Creates a team in org A as the caller; the actor's name its audit event records. */
async function teamCreatedBy(cookie: string, slug: string): Promise<string | undefined> {
  const team = await hub.orgCall(orgOf('a'), cookie, 'createTeam', { body: { slug, name: slug } });
  expectOk(team, 201);
  const events = await hub.orgCall(orgOf('a'), owners.a, 'listAuditEvents', {
    query: { action: 'createTeam', targetId: team.body.id },
  });
  expectOk(events);
  return events.body.events[0]?.actor.displayName;
}

describe("a user's name and avatar", () => {
  it("are each organization's own until the person signs in; then the provider's everywhere", async () => {
    const a = await add('a', {
      imOpenId: 'xavier',
      displayName: 'IT Security',
      avatarUrl: 'https://images.example.com/shield.png',
    });
    expect(a).toMatchObject({ displayName: 'IT Security', avatarUrl: 'https://images.example.com/shield.png' });
    const b = await add('b', { imOpenId: 'xavier', displayName: 'Xavier' });
    expect(b).toMatchObject({ displayName: 'Xavier', avatarUrl: null });
    expect(await shownIn('b', 'xavier')).toEqual({ displayName: 'Xavier', avatarUrl: null });
    expect(await shownIn('a', 'xavier')).toEqual({
      displayName: 'IT Security',
      avatarUrl: 'https://images.example.com/shield.png',
    });

    const xavier = await hub.login('xavier');
    expect(await teamCreatedBy(xavier, 'before')).toBe('IT Security');

    idp.addAccount('xavier', { name: 'Xavier Provider', picture: 'https://images.example.com/xavier.png' });
    const answer = await signInThrough(testBrowser(hub), 'corp', 'xavier');
    expect(answer.status).toBe(303);
    const claimed = { displayName: 'Xavier Provider', avatarUrl: 'https://images.example.com/xavier.png' };
    expect(await shownIn('a', 'xavier')).toEqual(claimed);
    expect(await shownIn('b', 'xavier')).toEqual(claimed);
    expect(await teamCreatedBy(xavier, 'after')).toBe('Xavier Provider');
    // A name given by an organization afterwards changes nothing.
    const org = await hub.createOrg('profile-c', 'profile-c-owner');
    const cookie = await hub.login('profile-c-owner');
    const added = await hub.orgCall('profile-c', cookie, 'addMember', {
      body: { imOpenId: 'xavier', displayName: 'Someone Else', role: 'MEMBER' },
    });
    expectOk(added, 201);
    expect(added.body).toMatchObject(claimed);
    expect(org.slug).toBe('profile-c');
  });

  it("shows a person added without a name by their imOpenId, not by another organization's name", async () => {
    await add('a', { imOpenId: 'yolanda', displayName: 'Payroll Desk' });
    const b = await add('b', { imOpenId: 'yolanda' });
    expect(b.displayName).toBe('yolanda');
    expect(await shownIn('a', 'yolanda')).toEqual({ displayName: 'Payroll Desk', avatarUrl: null });
  });

  it("names the person in team lists and as the audit log's actor with the organization's name", async () => {
    await add('a', { imOpenId: 'zed', displayName: 'Zed in A' });
    await add('b', { imOpenId: 'zed', displayName: 'Zed in B' });
    const zed = await hub.login('zed');
    const team = await hub.orgCall(orgOf('b'), zed, 'createTeam', { body: { slug: 'zeds', name: 'Zeds' } });
    expectOk(team, 201);
    const joined = await hub.orgCall(orgOf('b'), zed, 'addTeamMember', {
      path: { teamId: team.body.id },
      body: { imOpenId: 'zed' },
    });
    expectOk(joined, 201);
    expect(joined.body.displayName).toBe('Zed in B');
    const listed = await hub.orgCall(orgOf('b'), owners.b, 'listTeamMembers', { path: { teamId: team.body.id } });
    expectOk(listed);
    expect(listed.body.members.map((m) => m.displayName)).toEqual(['Zed in B']);
    const events = await hub.orgCall(orgOf('b'), owners.b, 'listAuditEvents', { query: { action: 'createTeam' } });
    expectOk(events);
    expect(events.body.events.map((e) => e.actor.displayName)).toEqual(['Zed in B']);
  });
});
