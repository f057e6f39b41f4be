import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, okBody } from '../support/assertions.js';
import { cliEnv, runHub } from '../support/hub-cli.js';
import { TestOpenIdProvider } from '../support/openid-provider.js';
import { type OrgFixture, seedOrg } from '../support/org-fixture.js';
import { setProvider, signInAtProvider, signInRowCounts, signInThrough, testBrowser } from '../support/sign-in-flow.js';
import { locationOf } from '../support/test-browser.js';
import { TEST_ORIGIN, type TestHub } from '../support/test-hub.js';
import { signInHub } from '../support/sign-in-flow.js';

/**
 * An organization's own identity provider, against a real OpenID Provider on loopback whose
 * accounts carry `groups` (one of them Entra ID's overage instead): its admins connect it, its
 * groups decide teams and roles at every sign-in, and its verified domain may require it.
 */
const SECRET = 'acme-client-secret-for-tests';
const PROVIDER = 'acme-sso';
let hub: TestHub;
let idp: TestOpenIdProvider;
let acme: OrgFixture;
let env: NodeJS.ProcessEnv;
const teams: Record<'eng' | 'ops' | 'design', string> = { eng: '', ops: '', design: '' };

const membershipOf = (userId: string) =>
  hub.services.db('memberships').where({ organization_id: acme.id, user_id: userId }).first();
/** The user's active teams in acme, by name, with the origin of each. */
async function teamsOf(userId: string): Promise<Record<string, string>> {
  const rows = await hub.services
    .db('team_members as tm')
    .join('teams as t', 't.id', 'tm.team_id')
    .where({ 'tm.user_id': userId, 't.organization_id': acme.id })
    .whereNull('tm.revoked_at')
    .select('t.name', 'tm.origin');
  return Object.fromEntries(rows.map((row: { name: string; origin: string }) => [row.name, row.origin]));
}
const eventsOf = async (action: string) =>
  (await okBody(acme.call('owner', 'listAuditEvents', { query: { action, limit: 50 } }))).events;

/** Signs `login` in through `providerId` in a fresh browser; the callback's answer and the user. */
async function signIn(login: string, providerId = PROVIDER) {
  const browser = testBrowser(hub);
  const answer = await signInThrough(browser, providerId, login);
  const location = locationOf(answer, TEST_ORIGIN);
  const identity = await hub.services.db('user_identities').where({ provider_id: providerId, subject: login }).first();
  return { answer, location, userId: identity?.user_id as string | undefined, browser };
}

beforeAll(async () => {
  hub = await signInHub({ signInRatePerMinute: 10_000 });
  idp = await TestOpenIdProvider.start({
    clientId: 'hub',
    clientSecret: SECRET,
    redirectUris: [PROVIDER, 'operator-sso'].map((id) => `${TEST_ORIGIN}/auth/${id}/callback`),
  });
  // The operator's provider over the same accounts: another way in, which enforcement closes.
  await setProvider(hub, { id: 'operator-sso', kind: 'oidc', issuer: idp.issuer, label: 'Operator SSO' }, SECRET);
  acme = await seedOrg(hub, 'acme');
  for (const [key, name] of [
    ['eng', 'Engineering'],
    ['ops', 'Operations'],
    ['design', 'Design'],
  ] as const) {
    teams[key] = (await okBody(acme.call('owner', 'createTeam', { body: { slug: key, name } }), 201)).id;
  }
  await hub.services.domains.bind(acme.id, 'acme.example');
  env = cliEnv(hub.database.dataDir, hub.database.databaseUrl);
  const account = (groups: unknown, email: string, extra: Record<string, unknown> = {}) => ({
    name: email.split('@')[0],
    email,
    email_verified: true,
    ...(groups === undefined ? {} : { groups }),
    ...extra,
  });
  idp.addAccount('alice', account(['eng', 'admins'], 'alice@acme.example'));
  idp.addAccount('bruno', account(['ops'], 'bruno@acme.example'));
  idp.addAccount('carol', account([], 'carol@acme.example'));
  idp.addAccount('erin', account(['eng'], 'erin@acme.example'));
  idp.addAccount('dave', account(['admins'], 'dave@acme.example'));
});

afterAll(async () => {
  await idp?.stop();
  await hub?.stop();
});

describe("an organization's identity providers", () => {
  it('are connected by its admins after discovery, the secret never shown, audited', async () => {
    const body = {
      id: PROVIDER,
      kind: 'oidc' as const,
      label: 'Acme SSO',
      issuer: idp.issuer,
      clientId: 'hub',
      clientSecret: SECRET,
      emailDomains: ['acme.example'],
      mappings: [
        { group: 'eng', teamId: teams.eng },
        { group: 'ops', teamId: teams.ops },
        { group: 'admins', role: 'ADMIN' as const },
      ],
    };
    const created = await okBody(acme.call('admin', 'createOrgIdentityProvider', { body }), 201);
    expect(created).toMatchObject({
      id: PROVIDER,
      issuer: idp.issuer,
      baseUrl: null,
      groupsClaim: 'groups',
      defaultRole: null,
      requireGroup: false,
      status: 'enabled',
      redirectUri: `${TEST_ORIGIN}/auth/${PROVIDER}/callback`,
      emailDomains: ['acme.example'],
    });
    expect(JSON.stringify(created)).not.toContain(SECRET);
    const [event] = await eventsOf('createOrgIdentityProvider');
    expect(JSON.stringify(event)).not.toContain(SECRET);
    expect(event).toMatchObject({ target: { type: 'identity_provider', id: PROVIDER, label: 'Acme SSO' } });
    const listed = await okBody(acme.call('owner', 'listOrgIdentityProviders'));
    expect(listed.identityProviders.map((p) => p.id)).toEqual([PROVIDER]);
    // The operator's providers stay theirs: not listed here, and the general page keeps them.
    const general = await okBody(hub.call('listSignInProviders'));
    expect(general.providers.map((p) => p.id)).toEqual(['operator-sso']);
    expect(general.loginLinks).toBe('on');
  });

  it('refuse what is not theirs or does not check out, changing nothing', async () => {
    const base = { kind: 'oidc' as const, label: 'X', issuer: idp.issuer, clientId: 'hub', clientSecret: 's' };
    const before = await hub.services.db('identity_providers').count({ n: '*' });
    expectError(
      await acme.call('owner', 'createOrgIdentityProvider', { body: { ...base, id: 'globex-sso' } }),
      400,
      'validation_failed',
    );
    expectError(
      await acme.call('owner', 'createOrgIdentityProvider', { body: { ...base, id: PROVIDER } }),
      409,
      'identity_provider_exists',
    );
    const unreachable = await acme.call('owner', 'createOrgIdentityProvider', {
      body: { ...base, id: 'acme-down', issuer: 'http://127.0.0.1:9/realms/none' },
    });
    expectError(unreachable, 422, 'identity_provider_check_failed');
    const foreignTeam = await acme.call('owner', 'createOrgIdentityProvider', {
      body: { ...base, id: 'acme-two', mappings: [{ group: 'x', teamId: 'no-such-team' }] },
    });
    expectError(foreignTeam, 404, 'team_not_found');
    const unverified = await acme.call('owner', 'createOrgIdentityProvider', {
      body: { ...base, id: 'acme-three', emailDomains: ['globex.example'] },
    });
    expectError(unverified, 422, 'domain_not_verified');
    expectError(await acme.call('member', 'listOrgIdentityProviders'), 403, 'org_admin_required');
    expect(await hub.services.db('identity_providers').count({ n: '*' })).toEqual(before);
    // The console cannot take an organization's provider over.
    const taken = await runHub(
      [
        'identity-provider',
        'set',
        PROVIDER,
        '--kind',
        'oidc',
        '--label',
        'Mine',
        '--issuer',
        idp.issuer,
        '--client-id',
        'hub',
      ],
      { ...env, HUB_IDP_CLIENT_SECRET: 'x', HUB_OUTBOUND_ALLOW_PRIVATE: '1' },
    );
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('belongs to an organization');
  });

  it("appear on the organization's sign-in page and for an address of its verified domain", async () => {
    const own = await okBody(hub.call('listSignInProviders', { query: { org: 'acme' } }));
    expect(own.providers.map((p) => p.id)).toEqual([PROVIDER, 'operator-sso']);
    expect(own.providers[0]).toEqual({ id: PROVIDER, label: 'Acme SSO', kind: 'oidc' });
    const unknown = await okBody(hub.call('listSignInProviders', { query: { org: 'no-such-org' } }));
    expect(unknown.providers.map((p) => p.id)).toEqual(['operator-sso']);
    const typed = await okBody(hub.call('listSignInProviders', { query: { email: 'someone@ACME.example' } }));
    expect(typed.providers.map((p) => p.id)).toEqual([PROVIDER, 'operator-sso']);
    const elsewhere = await okBody(hub.call('listSignInProviders', { query: { email: 'x@elsewhere.example' } }));
    expect(elsewhere.providers.map((p) => p.id)).toEqual(['operator-sso']);
  });
});

describe("the directory's groups", () => {
  it('make a first sign-in a member of the mapped teams with the highest mapped role, audited', async () => {
    const { location, userId } = await signIn('alice');
    expect(location).toBe(`${TEST_ORIGIN}/`);
    expect(await membershipOf(userId!)).toMatchObject({ role: 'ADMIN', origin: `idp:${PROVIDER}`, revoked_at: null });
    expect(await teamsOf(userId!)).toEqual({ Engineering: `idp:${PROVIDER}` });
    const [joined] = await eventsOf('directory.join');
    expect(joined).toMatchObject({
      actor: { type: 'system', id: null },
      target: { type: 'member', id: userId },
      changes: { after: { role: 'ADMIN', providerId: PROVIDER, group: 'admins' } },
    });
    const [team] = await eventsOf('directory.team_add');
    expect(team).toMatchObject({ changes: { after: { teamId: teams.eng, providerId: PROVIDER, group: 'eng' } } });
    expect(team!.summary).toContain('group eng');
  });

  it('take away only what they gave when a group goes, leaving what an admin gave', async () => {
    const alice = (await signIn('alice')).userId!;
    await okBody(acme.call('owner', 'addTeamMember', { path: { teamId: teams.design }, body: { userId: alice } }), 201);
    idp.addAccount('alice', { name: 'alice', email: 'alice@acme.example', email_verified: true, groups: ['ops'] });
    const { location } = await signIn('alice');
    expect(location).toBe(`${TEST_ORIGIN}/`);
    expect(await membershipOf(alice)).toMatchObject({ role: 'MEMBER', revoked_at: null });
    expect(await teamsOf(alice)).toEqual({ Design: 'manual', Operations: `idp:${PROVIDER}` });
    const [role] = await eventsOf('directory.role');
    expect(role).toMatchObject({ changes: { before: { role: 'ADMIN' }, after: { role: 'MEMBER', group: 'ops' } } });
    const [removed] = await eventsOf('directory.team_remove');
    expect(removed).toMatchObject({ target: { id: `${teams.eng}:${alice}` }, changes: { after: null } });
    // Signing in again with the same groups changes nothing and records nothing.
    const count = (await eventsOf('directory.role')).length + (await eventsOf('directory.team_add')).length;
    await signIn('alice');
    expect((await eventsOf('directory.role')).length + (await eventsOf('directory.team_add')).length).toBe(count);
  });

  it('never touch a membership they did not make, nor an OWNER', async () => {
    // Bruno signs in in no group (no membership), an admin adds him, then his groups change.
    idp.addAccount('bruno', { name: 'bruno', email: 'bruno@acme.example', email_verified: true, groups: [] });
    const bruno = (await signIn('bruno')).userId!;
    expect(await membershipOf(bruno)).toBeUndefined();
    const imOpenId = (await hub.services.db('users').where({ id: bruno }).first()).im_open_id as string;
    await okBody(acme.call('owner', 'addMember', { body: { imOpenId, role: 'MEMBER' } }), 201);
    idp.addAccount('bruno', {
      name: 'bruno',
      email: 'bruno@acme.example',
      email_verified: true,
      groups: ['admins', 'ops'],
    });
    await signIn('bruno');
    expect(await membershipOf(bruno)).toMatchObject({ role: 'MEMBER', origin: 'manual', revoked_at: null });
    // The directory still gives its teams to a member an admin made, and takes them back with the group.
    expect(await teamsOf(bruno)).toEqual({ Operations: `idp:${PROVIDER}` });
    idp.addAccount('bruno', { name: 'bruno', email: 'bruno@acme.example', email_verified: true, groups: [] });
    await signIn('bruno');
    expect(await membershipOf(bruno)).toMatchObject({ revoked_at: null });
    expect(await teamsOf(bruno)).toEqual({});
    // An OWNER's role is never the directory's to change.
    await okBody(acme.call('owner', 'updateMemberRole', { path: { userId: bruno }, body: { role: 'OWNER' } }));
    await signIn('bruno');
    expect(await membershipOf(bruno)).toMatchObject({ role: 'OWNER' });
  });

  it('remove a membership they made when no mapped group is left and there is no default role', async () => {
    idp.addAccount('erin', { name: 'erin', email: 'erin@acme.example', email_verified: true, groups: ['eng'] });
    const erin = (await signIn('erin')).userId!;
    expect(await membershipOf(erin)).toMatchObject({ role: 'MEMBER', revoked_at: null });
    idp.addAccount('erin', { name: 'erin', email: 'erin@acme.example', email_verified: true, groups: ['other'] });
    await signIn('erin');
    expect((await membershipOf(erin))!.revoked_at).not.toBeNull();
    expect(await teamsOf(erin)).toEqual({});
    expect((await eventsOf('directory.leave'))[0]).toMatchObject({ target: { id: erin } });
  });

  it('fail closed on an overage: nothing changes, and the audit event says why', async () => {
    const dave = (await signIn('dave')).userId!;
    expect(await membershipOf(dave)).toMatchObject({ role: 'ADMIN' });
    idp.addAccount('dave', {
      name: 'dave',
      email: 'dave@acme.example',
      email_verified: true,
      _claim_names: { groups: 'src1' },
      _claim_sources: { src1: { endpoint: 'https://graph.microsoft.com/v1.0/users/dave/getMemberObjects' } },
    });
    const { location } = await signIn('dave');
    expect(location).toBe(`${TEST_ORIGIN}/`);
    expect(await membershipOf(dave)).toMatchObject({ role: 'ADMIN', revoked_at: null });
    const [overage] = await eventsOf('directory.overage');
    expect(overage).toMatchObject({
      actor: { type: 'system' },
      target: { id: dave },
      changes: { after: { providerId: PROVIDER, overage: true } },
    });
    expect(overage!.summary).toContain('overage');
  });

  it('refuse, with requireGroup, a sign-in in none of the mapped groups before anything is written', async () => {
    await okBody(
      acme.call('owner', 'updateOrgIdentityProvider', { path: { providerId: PROVIDER }, body: { requireGroup: true } }),
    );
    const before = await signInRowCounts(hub);
    const { location } = await signIn('carol');
    expect(location).toBe(`${TEST_ORIGIN}/signin?error=group_required`);
    expect(await signInRowCounts(hub)).toEqual(before);
    await okBody(
      acme.call('owner', 'updateOrgIdentityProvider', {
        path: { providerId: PROVIDER },
        body: { requireGroup: false },
      }),
    );
  });
});

describe('a test sign-in from Settings → Sign-in', () => {
  it('reports what the provider sent and what the mappings would do, changing nothing, audited', async () => {
    const started = await acme.call('admin', 'testOrgIdentityProvider', { path: { providerId: PROVIDER } });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const signInCookie = /hub_signin=([^;]+)/.exec(started.headers.get('set-cookie') ?? '')![1]!;
    const browser = testBrowser(hub);
    browser.setCookie(TEST_ORIGIN, 'hub_session', acme.cookies.admin.split('=')[1]!);
    browser.setCookie(TEST_ORIGIN, 'hub_signin', signInCookie);
    idp.addAccount('tess', {
      name: 'Tess',
      email: 'tess@acme.example',
      email_verified: true,
      groups: ['eng', 'admins'],
    });
    const before = await signInRowCounts(hub);
    const membershipsBefore = await hub.services.db('memberships').where({ organization_id: acme.id });
    const callback = await signInAtProvider(browser, (started.body as { location: string }).location, 'tess');
    const answer = await browser.request(callback);
    const location = locationOf(answer, TEST_ORIGIN);
    expect(location.split('#')[0]).toBe(`${TEST_ORIGIN}/sign-in-test`);
    const report = JSON.parse(Buffer.from(location.split('#')[1]!, 'base64url').toString('utf8'));
    expect(report).toEqual({
      providerId: PROVIDER,
      providerLabel: 'Acme SSO',
      subject: 'tess',
      email: 'tess@acme.example',
      emailVerified: true,
      name: 'Tess',
      groupsClaim: 'groups',
      groups: ['eng', 'admins'],
      overage: false,
      refusal: null,
      matchedMappings: [
        { group: 'eng', teamId: teams.eng },
        { group: 'admins', role: 'ADMIN' },
      ],
      role: 'ADMIN',
      teamIds: [teams.eng],
    });
    expect(location).not.toContain(SECRET);
    expect(await signInRowCounts(hub)).toEqual(before);
    expect(await hub.services.db('memberships').where({ organization_id: acme.id })).toEqual(membershipsBefore);
    // The admin's session is the browser's still: the test signed nobody in.
    expect(browser.cookie(TEST_ORIGIN, 'hub_session')).toBe(acme.cookies.admin.split('=')[1]);
    const [read] = await eventsOf('directory.test_result');
    expect(read).toMatchObject({
      actor: { type: 'user', id: acme.userIds.admin },
      target: { type: 'identity_provider', id: PROVIDER },
      changes: { after: { subject: 'tess', email: 'tess@acme.example', groups: ['eng', 'admins'], role: 'ADMIN' } },
    });
    expect((await eventsOf('testOrgIdentityProvider')).length).toBe(1);
  });

  it('is refused for a provider that is not the organization’s, and for a member', async () => {
    expectError(
      await acme.call('admin', 'testOrgIdentityProvider', { path: { providerId: 'operator-sso' } }),
      404,
      'identity_provider_not_found',
    );
    expectError(
      await acme.call('member', 'testOrgIdentityProvider', { path: { providerId: PROVIDER } }),
      403,
      'org_admin_required',
    );
    // The browser that comes back must still hold the admin's session: nothing is read otherwise.
    const started = await acme.call('admin', 'testOrgIdentityProvider', { path: { providerId: PROVIDER } });
    const browser = testBrowser(hub);
    browser.setCookie(TEST_ORIGIN, 'hub_session', acme.cookies.member.split('=')[1]!);
    browser.setCookie(TEST_ORIGIN, 'hub_signin', /hub_signin=([^;]+)/.exec(started.headers.get('set-cookie')!)![1]!);
    const reads = (await eventsOf('directory.test_result')).length;
    const callback = await signInAtProvider(browser, (started.body as { location: string }).location, 'tess');
    expect(locationOf(await browser.request(callback), TEST_ORIGIN)).toBe(
      `${TEST_ORIGIN}/profile?error=session_required`,
    );
    expect((await eventsOf('directory.test_result')).length).toBe(reads);
  });
});

describe('sign-in a domain requires', () => {
  it('refuses the other providers and login links for its people, while break-glass works and is audited', async () => {
    const domain = (await okBody(acme.call('owner', 'listDomains'))).domains.find((d) => d.domain === 'acme.example')!;
    // A link issued before the requirement is refused at redemption all the same.
    const alice = (await hub.services.db('user_identities').where({ provider_id: PROVIDER, subject: 'alice' }).first())
      .user_id;
    const aliceImOpenId = (await hub.services.db('users').where({ id: alice }).first()).im_open_id as string;
    const early = await hub.loginToken(aliceImOpenId);
    // Someone of the domain who signed in another way before the requirement, holding an invitation.
    const elsewhere = await signIn('dave', 'operator-sso');
    const invitation = await okBody(acme.call('owner', 'createInvitation', { body: { role: 'MEMBER' } }), 201);

    const enforced = await okBody(
      acme.call('admin', 'updateDomain', {
        path: { domainId: domain.id },
        body: { enforceSso: { providerId: PROVIDER } },
      }),
    );
    expect(enforced.enforceSso).toEqual({ providerId: PROVIDER });
    expect((await eventsOf('updateDomain'))[0]!.summary).toContain(PROVIDER);

    const typed = await okBody(hub.call('listSignInProviders', { query: { email: 'x@acme.example' } }));
    expect(typed.providers.map((p) => p.id)).toEqual([PROVIDER]);

    const before = await signInRowCounts(hub);
    const other = await signIn('erin', 'operator-sso');
    // The page is told the domain, and asks which provider it requires: the one it offers instead.
    expect(other.location).toBe(`${TEST_ORIGIN}/signin?error=sso_required&domain=acme.example`);
    const offered = await okBody(hub.call('listSignInProviders', { query: { domain: 'acme.example' } }));
    expect(offered.providers).toEqual([{ id: PROVIDER, label: 'Acme SSO', kind: 'oidc' }]);
    expect(await signInRowCounts(hub)).toEqual(before);
    expect((await signIn('erin')).location).toBe(`${TEST_ORIGIN}/`);

    const requiredSignIn = { domain: 'acme.example', providerId: PROVIDER, providerLabel: 'Acme SSO' };
    const page = await fetch(`${hub.url}/auth/login?token=${early}`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(403);
    expect(await page.text()).toContain(`<a href="/auth/${PROVIDER}/start">Sign in with Acme SSO</a>`);
    const link = await hub.call('login', { query: { token: early } });
    expect(link.status).toBe(403);
    expect(link.body).toMatchObject({ error: { code: 'sso_required', requiredSignIn } });
    const token0 = invitation.url.split('/invite/')[1]!;
    const cookie = elsewhere.browser.cookieHeader(TEST_ORIGIN);
    const refusedJoin = await hub.call('acceptInvitation', { path: { token: token0 }, cookie });
    expect(refusedJoin.status).toBe(403);
    expect(refusedJoin.body).toMatchObject({
      error: { code: 'sso_required', requiredSignIn, message: expect.stringContaining('Acme SSO') },
    });
    const refused = await runHub(['login-link', aliceImOpenId], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('sign in with Acme SSO');
    const glass = await runHub(['login-link', aliceImOpenId, '--break-glass'], env);
    expect(glass.code, glass.stderr).toBe(0);
    const token = new URL(glass.stdout.trim()).searchParams.get('token')!;
    expect((await hub.call('login', { query: { token } })).status).toBe(303);
    const [audited] = await eventsOf('session.break_glass');
    expect(audited).toMatchObject({ actor: { type: 'console' }, target: { type: 'member', id: alice } });

    // The provider a domain requires cannot be disabled or removed until the domain stops requiring it.
    expectError(
      await acme.call('owner', 'updateOrgIdentityProvider', {
        path: { providerId: PROVIDER },
        body: { disabled: true },
      }),
      409,
      'identity_provider_in_use',
    );
    expectError(
      await acme.call('owner', 'deleteOrgIdentityProvider', { path: { providerId: PROVIDER } }),
      409,
      'identity_provider_in_use',
    );
    const released = await okBody(
      acme.call('owner', 'updateDomain', { path: { domainId: domain.id }, body: { enforceSso: null } }),
    );
    expect(released.enforceSso).toBeNull();
  });

  it('is set only on a verified domain, and only to a usable provider', async () => {
    const pending = await okBody(acme.call('owner', 'addDomain', { body: { domain: 'pending-acme.example' } }), 201);
    const body = { enforceSso: { providerId: PROVIDER } };
    expectError(
      await acme.call('owner', 'updateDomain', { path: { domainId: pending.id }, body }),
      422,
      'domain_not_verified',
    );
    const domain = (await okBody(acme.call('owner', 'listDomains'))).domains.find((d) => d.domain === 'acme.example')!;
    expectError(
      await acme.call('owner', 'updateDomain', {
        path: { domainId: domain.id },
        body: { enforceSso: { providerId: 'nope' } },
      }),
      404,
      'identity_provider_not_found',
    );
  });

  it('follows HUB_LOGIN_LINKS on the console', async () => {
    const off = await runHub(['login-link', 'acme-owner'], { ...env, HUB_LOGIN_LINKS: 'off' });
    expect(off.code).not.toBe(0);
    expect(off.stderr).toContain('HUB_LOGIN_LINKS=off');
    const glassOnly = await runHub(['login-link', 'acme-owner'], { ...env, HUB_LOGIN_LINKS: 'break-glass' });
    expect(glassOnly.stderr).toContain('only break-glass');
    const glass = await runHub(['login-link', 'acme-owner', '--break-glass'], {
      ...env,
      HUB_LOGIN_LINKS: 'break-glass',
    });
    expect(glass.code, glass.stderr).toBe(0);
  });
});

describe('removing a provider', () => {
  it('removes its sign-ins, keeps the memberships, and is audited', async () => {
    const count = async (query: ReturnType<TestHub['services']['db']>) =>
      Number(((await query.count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
    const identities = () => count(hub.services.db('user_identities').where({ provider_id: PROVIDER }));
    const members = () =>
      count(hub.services.db('memberships').where({ organization_id: acme.id }).whereNull('revoked_at'));
    expect(await identities()).toBeGreaterThan(0);
    const membersBefore = await members();
    expect((await acme.call('owner', 'deleteOrgIdentityProvider', { path: { providerId: PROVIDER } })).status).toBe(
      204,
    );
    expect(await identities()).toBe(0);
    expect(await members()).toBe(membersBefore);
    expect((await eventsOf('deleteOrgIdentityProvider'))[0]).toMatchObject({ changes: { after: null } });
  });
});
