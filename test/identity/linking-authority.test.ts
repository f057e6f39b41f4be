import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkingAuthorityHeld } from '../../src/identity/providers.js';
import { expectError, expectOk } from '../support/assertions.js';
import { LarkContractServer, type LarkUser } from '../support/lark-server.js';
import { TestOpenIdProvider } from '../support/openid-provider.js';
import {
  setProvider,
  signInAtProvider,
  signInHub,
  signInThrough,
  startSignIn,
  testBrowser,
} from '../support/sign-in-flow.js';
import { locationOf, type TestBrowser } from '../support/test-browser.js';
import { TEST_ORIGIN, type TestHub } from '../support/test-hub.js';

/**
 * Two OpenID Providers at once (`alpha`, `beta`: any account there may pick its own subject, as a
 * partner's or self-hosted provider allows) beside the chat platform's sign-in (`lark`), which alone
 * speaks for the imOpenId namespace.
 */
const SECRET = 'oidc-client-secret-for-tests';
const APP = { id: 'cli_linking', secret: 'lark-app-secret-for-tests' };
let hub: TestHub;
let alpha: TestOpenIdProvider;
let beta: TestOpenIdProvider;
let lark: LarkContractServer;
let ownerCookie: string;
const ORG = 'takeover';

beforeAll(async () => {
  hub = await signInHub({ signInRatePerMinute: 10_000 });
  const op = (id: string) =>
    TestOpenIdProvider.start({
      clientId: 'hub',
      clientSecret: SECRET,
      redirectUris: [`${TEST_ORIGIN}/auth/${id}/callback`],
    });
  [alpha, beta, lark] = await Promise.all([op('alpha'), op('beta'), LarkContractServer.start(APP)]);
  await setProvider(hub, { id: 'alpha', kind: 'oidc', issuer: alpha.issuer, label: 'Alpha SSO' }, SECRET);
  await setProvider(hub, { id: 'beta', kind: 'oidc', issuer: beta.issuer, label: 'Beta SSO' }, SECRET);
  await setProvider(
    hub,
    {
      id: 'lark',
      kind: 'lark',
      label: 'Lark',
      baseUrl: lark.baseUrl,
      clientId: APP.id,
      allowedTenants: 'tenant-acme',
      linksImOpenId: true,
    },
    APP.secret,
  );
  await hub.createOrg(ORG, 'ou_owner');
  ownerCookie = await hub.login('ou_owner');
});

afterAll(async () => {
  await Promise.all([alpha?.stop(), beta?.stop(), lark?.stop()]);
  await hub?.stop();
});

type Me = { user: { id: string; imOpenId: string; displayName: string; avatarUrl: string | null } };

async function meOf(b: TestBrowser) {
  const me = await hub.call('getMe', { cookie: b.cookieHeader(TEST_ORIGIN) });
  expectOk(me);
  return me.body as Me & { organizations: Array<{ slug: string; role: string }> };
}

/** A lark sign-in as `user` (the platform consents at once); the callback's answer. */
async function larkSignIn(b: TestBrowser, user: Omit<LarkUser, 'union_id' | 'tenant_key'>, link = false) {
  lark.signedIn = { union_id: `on_${user.open_id}`, tenant_key: 'tenant-acme', ...user };
  const authorization = await startSignIn(b, 'lark', link ? '/profile' : undefined, link);
  return b.request(locationOf(await b.request(authorization), authorization));
}

async function addMember(imOpenId: string, role: 'OWNER' | 'ADMIN' | 'MEMBER' = 'ADMIN') {
  const added = await hub.orgCall(ORG, ownerCookie, 'addMember', { body: { imOpenId, role, displayName: 'Victim' } });
  expectOk(added, 201);
  return added.body.userId;
}

const userIdOf = async (imOpenId: string) =>
  ((await hub.services.db('users').where({ im_open_id: imOpenId }).first('id')) as { id: string }).id;

/** A first sign-in that must not become anyone: a new user, in no organization, under a namespaced imOpenId. */
async function expectNewUser(b: TestBrowser, victimId: string, provider: string, subject: string) {
  const me = await meOf(b);
  expect(me.user.id).not.toBe(victimId);
  expect(me.user.imOpenId).toBe(`${provider}:${subject}`);
  expect(me.organizations).toEqual([]);
  const members = await hub.orgCall(ORG, ownerCookie, 'listMembers');
  expectOk(members);
  const victim = members.body.members.find((m) => m.userId === victimId)!;
  expect(victim.displayName).not.toBe('Mallory');
}

describe('one provider speaks for the imOpenId namespace', () => {
  it('(a) a member added by imOpenId who never signed in is not taken by another provider with that sub', async () => {
    const victimId = await addMember('ou_victim');
    beta.addAccount('ou_victim', { name: 'Mallory' });
    const attacker = testBrowser(hub);
    expect((await signInThrough(attacker, 'beta', 'ou_victim')).status).toBe(303);
    await expectNewUser(attacker, victimId, 'beta', 'ou_victim');
    // The victim still signs in as themselves through the provider that speaks for imOpenIds.
    const victim = testBrowser(hub);
    await larkSignIn(victim, { open_id: 'ou_victim', name: 'Real Victim' });
    const me = await meOf(victim);
    expect(me.user.id).toBe(victimId);
    expect(me.organizations.map((o) => [o.slug, o.role])).toEqual([[ORG, 'ADMIN']]);
  });

  it('(b) a member linked through OIDC provider alpha is not taken over at beta with the same sub', async () => {
    alpha.addAccount('carol', { name: 'Carol' });
    const carol = testBrowser(hub);
    await signInThrough(carol, 'alpha', 'carol');
    const carolMe = await meOf(carol);
    await addMember(carolMe.user.imOpenId);
    expect((await meOf(carol)).organizations.map((o) => o.slug)).toEqual([ORG]);

    for (const sub of ['carol', carolMe.user.imOpenId]) {
      beta.addAccount(sub, { name: 'Mallory' });
      const attacker = testBrowser(hub);
      await signInThrough(attacker, 'beta', sub);
      const me = await meOf(attacker);
      expect(me.user.id, sub).not.toBe(carolMe.user.id);
      expect(me.organizations, sub).toEqual([]);
    }
    expect((await meOf(carol)).user.displayName).toBe('Carol');
  });

  it('(c) a member linked through lark is not taken over at an OIDC provider with the open_id as sub', async () => {
    const danId = await addMember('ou_dan');
    const dan = testBrowser(hub);
    await larkSignIn(dan, { open_id: 'ou_dan', name: 'Dan' });
    // The provider holding the authority does link: the first lark sign-in is the member added.
    expect((await meOf(dan)).user).toMatchObject({ id: danId, imOpenId: 'ou_dan', displayName: 'Dan' });
    alpha.addAccount('ou_dan', { name: 'Mallory' });
    const attacker = testBrowser(hub);
    await signInThrough(attacker, 'alpha', 'ou_dan');
    await expectNewUser(attacker, danId, 'alpha', 'ou_dan');
    expect((await meOf(dan)).user.displayName).toBe('Dan');
  });

  it('a namespaced imOpenId an admin added before the person came is not theirs either', async () => {
    const plantedId = await addMember('beta:erin');
    beta.addAccount('erin', { name: 'Erin' });
    const erin = testBrowser(hub);
    await signInThrough(erin, 'beta', 'erin');
    const me = await meOf(erin);
    expect(me.user.id).not.toBe(plantedId);
    expect(me.user.imOpenId).toMatch(/^beta:[A-Za-z0-9_-]{22}$/);
    expect(me.organizations).toEqual([]);
  });

  it('refuses a second provider holding the authority, naming the first; changes nothing', async () => {
    const before = await hub.services.db('identity_providers').orderBy('id').select('id', 'links_im_open_id');
    await expect(
      setProvider(hub, { id: 'beta', kind: 'oidc', issuer: beta.issuer, linksImOpenId: true }, SECRET),
    ).rejects.toThrow(LinkingAuthorityHeld);
    await expect(
      setProvider(hub, { id: 'gamma', kind: 'oidc', issuer: beta.issuer, linksImOpenId: true }, SECRET),
    ).rejects.toThrow(/"lark" already links/);
    expect(await hub.services.db('identity_providers').orderBy('id').select('id', 'links_im_open_id')).toEqual(before);
  });
});

describe('connected sign-ins', () => {
  /** Someone who signed in through lark as a member; their browser and user id. */
  async function member(openId: string) {
    const userId = await addMember(openId, 'MEMBER');
    const b = testBrowser(hub);
    await larkSignIn(b, { open_id: openId, name: `Name of ${openId}` });
    return { b, userId, cookie: b.cookieHeader(TEST_ORIGIN) };
  }

  const identitiesOf = async (cookie: string) => {
    const listed = await hub.call('listMyIdentities', { cookie });
    expectOk(listed);
    return listed.body.identities;
  };

  it('connects an identity to the signed-in user, keeping the session; audited in each organization', async () => {
    const { b, userId, cookie } = await member('ou_gina');
    const second = await hub.createOrg('second', 'ou_second_owner');
    await hub.addMembership(second.id, 'ou_gina', 'MEMBER');
    const session = b.cookie(TEST_ORIGIN, 'hub_session');
    alpha.addAccount('gina-at-alpha', { name: 'Other Name', email: 'gina@alpha.example', email_verified: true });
    const answer = await signInThrough(b, 'alpha', 'gina-at-alpha', '/profile', true);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/profile');
    expect(b.cookie(TEST_ORIGIN, 'hub_session')).toBe(session);
    expect((await meOf(b)).user).toMatchObject({ id: userId, displayName: 'Name of ou_gina' });
    const identities = await identitiesOf(cookie);
    expect(identities.map(({ providerId, providerLabel, email }) => ({ providerId, providerLabel, email }))).toEqual([
      { providerId: 'alpha', providerLabel: 'Alpha SSO', email: 'gina@alpha.example' },
      { providerId: 'lark', providerLabel: 'Lark', email: null },
    ]);
    // The connected identity now signs the same person in.
    const elsewhere = testBrowser(hub);
    await signInThrough(elsewhere, 'alpha', 'gina-at-alpha');
    expect((await meOf(elsewhere)).user.id).toBe(userId);
    const secondOwner = await hub.login('ou_second_owner');
    for (const [org, cookieOfAdmin] of [
      [ORG, ownerCookie],
      ['second', secondOwner],
    ] as const) {
      const events = await hub.orgCall(org, cookieOfAdmin, 'listAuditEvents', { query: { action: 'connectIdentity' } });
      expectOk(events);
      const mine = events.body.events.filter((e) => e.actor.id === userId);
      expect(mine, org).toHaveLength(1);
      expect(mine[0], org).toMatchObject({
        actor: { type: 'user', displayName: 'Name of ou_gina' },
        target: { type: 'identity', id: identities[0]!.id, label: 'Alpha SSO' },
      });
      // Neither the subject nor the address at the other provider is the organization's to read.
      expect(JSON.stringify(mine[0]), org).not.toMatch(/gina-at-alpha|gina@alpha/);
    }
  });

  it('refuses an identity of someone else (identity_in_use) on the profile page, changing nothing', async () => {
    alpha.addAccount('henry', { name: 'Henry' });
    await signInThrough(testBrowser(hub), 'alpha', 'henry');
    const { b, cookie } = await member('ou_ida');
    const before = await identitiesOf(cookie);
    const answer = await signInThrough(b, 'alpha', 'henry', '/profile', true);
    expect(answer.headers.get('location')).toBe('/profile?error=identity_in_use');
    expect(answer.headers.get('x-sign-in-error')).toBe('identity_in_use');
    expect(await identitiesOf(cookie)).toEqual(before);
    expect(b.cookie(TEST_ORIGIN, 'hub_session')).toBeDefined();
  });

  it('connecting needs a session at the start and the same one at the callback', async () => {
    const signedOut = testBrowser(hub);
    const start = await signedOut.request(`${TEST_ORIGIN}/auth/alpha/start?link=1`);
    expect(start.headers.get('location')).toBe('/profile?error=session_required');

    const { b, cookie } = await member('ou_jack');
    alpha.addAccount('jack-at-alpha');
    const authorization = await startSignIn(b, 'alpha', '/profile', true);
    const callback = await signInAtProvider(b, authorization, 'jack-at-alpha');
    await hub.call('logout', { cookie });
    const answer = await b.request(callback);
    expect(answer.headers.get('location')).toBe('/profile?error=session_required');
    const rows = await hub.services.db('user_identities').where({ provider_id: 'alpha', subject: 'jack-at-alpha' });
    expect(rows).toEqual([]);
  });

  it('keeps the state, browser binding and PKCE of a sign-in: another browser cannot finish a connection', async () => {
    const { b } = await member('ou_kate');
    const { b: other, cookie: otherCookie } = await member('ou_leo');
    alpha.addAccount('kate-at-alpha');
    const authorization = await startSignIn(b, 'alpha', '/profile', true);
    const callback = await signInAtProvider(b, authorization, 'kate-at-alpha');
    const answer = await other.request(callback);
    expect(answer.headers.get('location')).toBe('/signin?error=state_invalid');
    expect((await identitiesOf(otherCookie)).map((i) => i.providerId)).toEqual(['lark']);
  });

  it('removes an identity, never the last one, and audits the removal', async () => {
    const { b, userId, cookie } = await member('ou_mia');
    beta.addAccount('mia-at-beta');
    await signInThrough(b, 'beta', 'mia-at-beta', '/profile', true);
    const mine = await identitiesOf(cookie);
    const larkIdentity = mine.find((i) => i.providerId === 'lark');
    const betaIdentity = mine.find((i) => i.providerId === 'beta');
    expect(mine).toHaveLength(2);
    expect(Date.parse(betaIdentity!.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(larkIdentity!.lastUsedAt));

    const someoneElse = (await member('ou_noah')).cookie;
    expectError(
      await hub.call('removeMyIdentity', { cookie: someoneElse, path: { identityId: betaIdentity!.id } }),
      404,
      'identity_not_found',
    );
    const removed = await hub.call('removeMyIdentity', { cookie, path: { identityId: betaIdentity!.id } });
    expect(removed.status).toBe(204);
    expect((await identitiesOf(cookie)).map((i) => i.id)).toEqual([larkIdentity!.id]);
    const last = await hub.call('removeMyIdentity', { cookie, path: { identityId: larkIdentity!.id } });
    expect(expectError(last, 409, 'last_identity').error.message).toContain('Lark');
    expect((await identitiesOf(cookie)).map((i) => i.id)).toEqual([larkIdentity!.id]);

    const events = await hub.orgCall(ORG, ownerCookie, 'listAuditEvents', { query: { action: 'removeMyIdentity' } });
    expectOk(events);
    expect(events.body.events.filter((e) => e.actor.id === userId).map((e) => e.target)).toEqual([
      { type: 'identity', id: betaIdentity!.id, label: 'Beta SSO' },
    ]);
    // Removed, the beta account's next sign-in is a first one again: a new user.
    const again = testBrowser(hub);
    await signInThrough(again, 'beta', 'mia-at-beta');
    expect((await meOf(again)).user.id).not.toBe(userId);
  });
});

describe('/api/me names the person as the provider does', () => {
  it("shows the imOpenId and no avatar before any sign-in, never an organization's name", async () => {
    const added = await hub.orgCall(ORG, ownerCookie, 'addMember', {
      body: {
        imOpenId: 'ou_olga',
        role: 'MEMBER',
        displayName: 'Given by the org',
        avatarUrl: 'https://images.example.com/org.png',
      },
    });
    expectOk(added, 201);
    const cookie = await hub.login('ou_olga');
    const me = await hub.call('getMe', { cookie });
    expectOk(me);
    expect(me.body.user).toMatchObject({ imOpenId: 'ou_olga', displayName: 'ou_olga', avatarUrl: null });

    const b = testBrowser(hub);
    await larkSignIn(b, { open_id: 'ou_olga', name: 'Olga', avatar_url: 'https://images.example.com/olga.png' });
    expect((await meOf(b)).user).toMatchObject({
      id: await userIdOf('ou_olga'),
      displayName: 'Olga',
      avatarUrl: 'https://images.example.com/olga.png',
    });
  });
});
