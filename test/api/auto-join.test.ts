import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, expectError, okBody } from '../support/assertions.js';
import type { TestOpenIdProvider } from '../support/openid-provider.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { ownDomain } from '../support/owned-domain.js';
import { hubWithOpenIdProvider, signInThrough } from '../support/sign-in-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { TEST_ORIGIN, type TestHub } from '../support/test-hub.js';

/** The token policy every organization starts with. */
const DEFAULT_TOKENS = {
  personalAllowed: true,
  requireExpiry: false,
  maxLifetimeDays: null,
  revokeUnusedAfterDays: null,
};

let hub: TestHub;
let idp: TestOpenIdProvider;
let counter = 0;

/** The domains `corp` vouches for (and to which it restricts sign-in); `other` and `tenants` vouch for none. */
const CORP_DOMAINS =
  'join.example,strict.example,eu.strict.example,both.example,back.example,crowd.example,now.example';

beforeAll(async () => {
  ({ hub, idp } = await hubWithOpenIdProvider(['corp', 'other', 'tenants'], { corp: CORP_DOMAINS }));
});
afterAll(async () => {
  await idp?.stop();
  await hub?.stop();
});

const unique = (prefix: string) => `${prefix}-${++counter}`;
const freshOrg = () => seedOrg(hub, unique('aj'));

/** Signs a new account in through the provider; its user id. */
async function signIn(claims: Record<string, unknown>, providerId = 'corp', sub = unique('sub')): Promise<string> {
  idp.addAccount(sub, { name: `Person ${sub}`, ...claims });
  const browser = new TestBrowser({ [TEST_ORIGIN]: hub.url });
  const answer = await signInThrough(browser, providerId, sub);
  expect(answer.status).toBe(303);
  expect(answer.headers.get('location')).toBe('/');
  const row = await hub.services.db('user_identities').where({ provider_id: providerId, subject: sub }).first();
  return row.user_id as string;
}

const rule = (fields: { emailDomains?: string[]; tenantKeys?: string[]; providerId?: string }) => ({
  providerId: 'corp',
  role: 'MEMBER' as const,
  ...fields,
});

/** Sets the rule, its email domains first made the organization's (verified). */
async function setRule(org: OrgFixture, fields: Parameters<typeof rule>[0]) {
  for (const domain of fields.emailDomains ?? []) await ownDomain(hub, org.id, domain);
  return okBody(org.call('owner', 'updateOrgSettings', { body: { autoJoin: rule(fields) } }));
}

const membershipOf = (org: OrgFixture, userId: string) =>
  hub.services.db('memberships').where({ organization_id: org.id, user_id: userId }).first();

describe('the automatic-membership setting', () => {
  it('is off by default, set and cleared by an admin, normalized, and audited', async () => {
    const org = await freshOrg();
    expect(await okBody(org.call('member', 'getOrgSettings'))).toEqual({
      membersCanCreateProjects: false,
      autoJoin: null,
      tokens: DEFAULT_TOKENS,
    });
    await ownDomain(hub, org.id, 'example.com');
    const set = await okBody(
      org.call('admin', 'updateOrgSettings', {
        body: { autoJoin: rule({ emailDomains: ['Example.COM', 'example.com'], tenantKeys: ['t1'] }) },
      }),
    );
    expect(set).toEqual({
      membersCanCreateProjects: false,
      autoJoin: {
        providerId: 'corp',
        emailDomains: ['example.com'],
        tenantKeys: ['t1'],
        role: 'MEMBER',
        disabledReason: null,
      },
      tokens: DEFAULT_TOKENS,
    });
    expect(await okBody(org.call('member', 'getOrgSettings'))).toEqual(set);
    // Changing the other setting leaves the rule as it is.
    const flag = await okBody(org.call('owner', 'updateOrgSettings', { body: { membersCanCreateProjects: true } }));
    expect(flag.autoJoin).toEqual(set.autoJoin);
    const cleared = await okBody(org.call('owner', 'updateOrgSettings', { body: { autoJoin: null } }));
    expect(cleared).toEqual({ membersCanCreateProjects: true, autoJoin: null, tokens: DEFAULT_TOKENS });

    const events = await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'updateOrgSettings' } }));
    expect(events.events.map((e) => e.changes)).toContainEqual({
      before: { membersCanCreateProjects: false, autoJoin: null, tokens: DEFAULT_TOKENS },
      after: set,
    });
  });

  it('is changed by org admins only', async () => {
    const org = await freshOrg();
    const res = await org.call('member', 'updateOrgSettings', {
      body: { autoJoin: rule({ emailDomains: ['a.example'] }) },
    });
    expectError(res, 403, 'org_admin_required');
    expect((await okBody(org.call('owner', 'getOrgSettings'))).autoJoin).toBeNull();
  });

  it('refuses a domain that is not bare, a rule matching nobody and an unknown provider', async () => {
    const org = await freshOrg();
    const refusals: Array<[Parameters<typeof rule>[0], string]> = [
      [{ emailDomains: ['*.example.com'] }, '/body/autoJoin/emailDomains/0 "*.example.com" is a wildcard'],
      [{ emailDomains: ['ok.example', '@example.com'] }, '/body/autoJoin/emailDomains/1 "@example.com"'],
      [{ emailDomains: ['ada@example.com'] }, 'is an email address'],
      [{ emailDomains: ['localhost'] }, 'has a single label'],
      [{ emailDomains: ['a..example'] }, 'is not a domain name'],
      [{ tenantKeys: ['has space'] }, '/body/autoJoin/tenantKeys/0'],
      [{}, '/body/autoJoin must name at least one email domain or tenant key'],
      [{ emailDomains: [], tenantKeys: [] }, 'at least one email domain or tenant key'],
      [{ emailDomains: ['example.com'], providerId: 'nowhere' }, '"nowhere" names no configured identity provider'],
    ];
    for (const [fields, message] of refusals) {
      const res = await org.call('owner', 'updateOrgSettings', { body: { autoJoin: rule(fields) } });
      expectError(res, 400, 'validation_failed');
      expect(errorBody(res).error.message).toContain(message);
    }
    const raw = await org.api('owner', 'PATCH', '/settings', { autoJoin: { ...rule({}), role: 'ADMIN' } });
    expect(raw.status).toBe(400);
    expect((await okBody(org.call('owner', 'getOrgSettings'))).autoJoin).toBeNull();
    const events = await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'updateOrgSettings' } }));
    expect(events.events).toHaveLength(0);
  });
});

describe('the rule and verified domains', () => {
  it('refuses an email domain the organization has not verified, changing nothing', async () => {
    const org = await freshOrg();
    await ownDomain(hub, org.id, 'mine.example');
    const pending = await okBody(org.call('owner', 'addDomain', { body: { domain: 'pending.example' } }), 201);
    const res = await org.call('owner', 'updateOrgSettings', {
      body: { autoJoin: rule({ emailDomains: ['mine.example', pending.domain, 'theirs.example'] }) },
    });
    expectError(res, 422, 'domain_not_verified');
    expect(errorBody(res).error.message).toContain('pending.example, theirs.example are not a verified domain');
    expect((await okBody(org.call('owner', 'getOrgSettings'))).autoJoin).toBeNull();
    // A domain verified by another organization is not this one's either.
    const other = await freshOrg();
    expectError(
      await other.call('owner', 'updateOrgSettings', { body: { autoJoin: rule({ emailDomains: ['mine.example'] }) } }),
      422,
      'domain_not_verified',
    );
  });

  it('keeps a verified domain the rule names from being removed (domain_in_use)', async () => {
    const org = await freshOrg();
    await setRule(org, { emailDomains: ['kept.example'] });
    const [domain] = (await okBody(org.call('owner', 'listDomains'))).domains;
    const res = await org.call('admin', 'deleteDomain', { path: { domainId: domain!.id } });
    expectError(res, 409, 'domain_in_use');
    expect((await okBody(org.call('owner', 'listDomains'))).domains).toEqual([domain]);
    await okBody(org.call('owner', 'updateOrgSettings', { body: { autoJoin: null } }));
    expect((await org.call('admin', 'deleteDomain', { path: { domainId: domain!.id } })).status).toBe(204);
  });

  it('admits nobody by email through a provider that vouches for no domain', async () => {
    const org = await freshOrg();
    // `other` has no --email-domains: its "verified" email is its word for any address.
    await setRule(org, { emailDomains: ['strict.example'], providerId: 'other' });
    const claimed = await signIn({ email: 'eve@strict.example', email_verified: true }, 'other');
    expect(await membershipOf(org, claimed)).toBeUndefined();
  });
});

describe('signing in', () => {
  it('makes a verified email at a listed domain a MEMBER, audited with the system as actor', async () => {
    const org = await freshOrg();
    await setRule(org, { emailDomains: ['join.example'] });
    const userId = await signIn({ email: 'Ada@Join.Example', email_verified: true });
    expect(await membershipOf(org, userId)).toMatchObject({ role: 'MEMBER', revoked_at: null });
    const members = await okBody(org.call('owner', 'listMembers'));
    expect(members.members.find((m) => m.userId === userId)?.role).toBe('MEMBER');

    const events = await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'autoJoin' } }));
    expect(events.events).toHaveLength(1);
    expect(events.events[0]).toMatchObject({
      actor: { type: 'system', id: null, displayName: 'automatic membership' },
      action: 'autoJoin',
      target: { type: 'member', id: userId },
      requestId: expect.any(String),
      changes: {
        before: null,
        after: { userId, role: 'MEMBER', providerId: 'corp', matched: { emailDomain: 'join.example' } },
      },
    });
  });

  it('matches the account tenant against the tenant keys', async () => {
    const org = await freshOrg();
    await setRule(org, { tenantKeys: ['tenant-a'], providerId: 'tenants' });
    const inTenant = await signIn({ tid: 'tenant-a' }, 'tenants');
    const elsewhere = await signIn({ tid: 'tenant-b' }, 'tenants');
    expect(await membershipOf(org, inTenant)).toMatchObject({ role: 'MEMBER' });
    expect(await membershipOf(org, elsewhere)).toBeUndefined();
  });

  it('never matches an unverified email, another domain or another provider', async () => {
    const org = await freshOrg();
    await setRule(org, { emailDomains: ['strict.example'] });
    const unverified = await signIn({ email: 'kim@strict.example', email_verified: false }, 'other');
    const subdomain = await signIn({ email: 'lee@eu.strict.example', email_verified: true });
    const throughOther = await signIn({ email: 'max@strict.example', email_verified: true }, 'other');
    for (const userId of [unverified, subdomain, throughOther]) expect(await membershipOf(org, userId)).toBeUndefined();
    const events = await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'autoJoin' } }));
    expect(events.events).toHaveLength(0);
  });

  it('joins every organization whose rule matches, and only once', async () => {
    const [a, b, off] = [await freshOrg(), await freshOrg(), await freshOrg()];
    // A domain is one organization's; the other admits the account's tenant.
    await setRule(a, { emailDomains: ['both.example'] });
    await setRule(b, { tenantKeys: ['tenant-both'] });
    const sub = unique('sub');
    const claims = { email: 'ola@both.example', email_verified: true, tid: 'tenant-both' };
    const userId = await signIn(claims, 'corp', sub);
    await signIn(claims, 'corp', sub);
    for (const org of [a, b]) {
      expect(await hub.services.db('memberships').where({ organization_id: org.id, user_id: userId })).toHaveLength(1);
      const events = await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'autoJoin' } }));
      expect(events.events).toHaveLength(1);
    }
    expect(await membershipOf(off, userId)).toBeUndefined();
  });

  it('does not bring back a member whose membership was revoked; an existing role is kept', async () => {
    const org = await freshOrg();
    await setRule(org, { emailDomains: ['back.example'] });
    const sub = unique('sub');
    const userId = await signIn({ email: 'pat@back.example', email_verified: true }, 'corp', sub);
    await okBody(org.call('owner', 'updateMemberRole', { path: { userId }, body: { role: 'ADMIN' } }));
    await signIn({ email: 'pat@back.example', email_verified: true }, 'corp', sub);
    expect(await membershipOf(org, userId)).toMatchObject({ role: 'ADMIN', revoked_at: null });

    await okBody(org.call('owner', 'revokeMember', { path: { userId } }));
    await signIn({ email: 'pat@back.example', email_verified: true }, 'corp', sub);
    expect((await membershipOf(org, userId)).revoked_at).not.toBeNull();
    const events = await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'autoJoin' } }));
    expect(events.events).toHaveLength(1);
  });

  it('skips a full organization without failing the sign-in, and still joins the others', async () => {
    const [full, open] = [await freshOrg(), await freshOrg()];
    // owner, admin and member: full at 3.
    await okBody(full.call('owner', 'updateCapacityPolicy', { body: { limits: { memberCount: 3 } } }));
    await setRule(full, { emailDomains: ['crowd.example'] });
    await setRule(open, { tenantKeys: ['tenant-crowd'] });
    const userId = await signIn({ email: 'sam@crowd.example', email_verified: true, tid: 'tenant-crowd' });
    expect(await membershipOf(full, userId)).toBeUndefined();
    expect(await membershipOf(open, userId)).toMatchObject({ role: 'MEMBER' });
    const events = await okBody(full.call('owner', 'listAuditEvents', { query: { action: 'autoJoin' } }));
    expect(events.events).toHaveLength(0);
  });

  it('admits nobody to an organization being deleted, and still joins the others', async () => {
    const [deleting, open] = [await freshOrg(), await freshOrg()];
    await setRule(deleting, { tenantKeys: ['tenant-leaving'] });
    await setRule(open, { tenantKeys: ['tenant-leaving'] });
    await okBody(deleting.call('owner', 'deleteOrganization'));
    const userId = await signIn({ email: 'lee@crowd.example', email_verified: true, tid: 'tenant-leaving' });
    expect(await membershipOf(deleting, userId)).toBeUndefined();
    expect(await membershipOf(open, userId)).toMatchObject({ role: 'MEMBER' });
  });

  it('lets the new member in at once with the session the sign-in set', async () => {
    const org = await freshOrg();
    await setRule(org, { emailDomains: ['now.example'] });
    const sub = unique('sub');
    idp.addAccount(sub, { name: 'Now', email: 'now@now.example', email_verified: true });
    const browser = new TestBrowser({ [TEST_ORIGIN]: hub.url });
    expect((await signInThrough(browser, 'corp', sub)).status).toBe(303);
    const cookie = `hub_session=${browser.cookie(TEST_ORIGIN, 'hub_session')}`;
    const me = await okBody(hub.call('getMe', { cookie }));
    expect(me.organizations.map((o) => o.slug)).toContain(org.slug);
  });
});
