import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/config/clock.js';
import { MAX_PENDING_INVITATIONS } from '../../src/invitations/service.js';
import { errorBody, expectError, okBody } from '../support/assertions.js';
import { TestOpenIdProvider } from '../support/openid-provider.js';
import { seedOrg } from '../support/org-fixture.js';
import { ownDomain } from '../support/owned-domain.js';
import { hubWithOpenIdProvider, setProvider, signInThrough } from '../support/sign-in-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { TEST_ORIGIN, type TestHub } from '../support/test-hub.js';

/**
 * Whom an email-bound invitation trusts, against two real OpenID Providers on loopback: the
 * company's (`corp`, vouching for acme.example) and a partner's (`partner`, configured with no
 * email domains), where anyone may hold an account claiming any address verified.
 */
let hub: TestHub;
let corp: TestOpenIdProvider;
let partner: TestOpenIdProvider;
let counter = 0;
const PARTNER_SECRET = 'partner-client-secret-for-tests';

beforeAll(async () => {
  ({ hub, idp: corp } = await hubWithOpenIdProvider(['corp'], { corp: 'acme.example' }));
  partner = await TestOpenIdProvider.start({
    clientId: 'hub',
    clientSecret: PARTNER_SECRET,
    redirectUris: [`${TEST_ORIGIN}/auth/partner/callback`],
  });
  await setProvider(hub, { id: 'partner', kind: 'oidc', issuer: partner.issuer }, PARTNER_SECRET);
});
afterAll(async () => {
  await corp?.stop();
  await partner?.stop();
  await hub?.stop();
});

const unique = (prefix: string) => `${prefix}-${++counter}`;

/** Signs a new account in at one of the providers, claiming `email` verified; its session cookie. */
async function signedIn(at: 'corp' | 'partner', email: string): Promise<string> {
  const sub = unique('sub');
  (at === 'corp' ? corp : partner).addAccount(sub, { name: `Person ${sub}`, email, email_verified: true });
  const browser = new TestBrowser({ [TEST_ORIGIN]: hub.url });
  expect((await signInThrough(browser, at, sub)).status).toBe(303);
  return `hub_session=${browser.cookie(TEST_ORIGIN, 'hub_session')}`;
}

describe('an invitation bound to an email address', () => {
  it("cannot be taken by a partner provider's account claiming the address", async () => {
    const org = await seedOrg(hub, unique('trust'));
    await ownDomain(hub, org.id, 'acme.example');
    const email = `${unique('bob')}@acme.example`;
    const created = await okBody(org.call('owner', 'createInvitation', { body: { role: 'ADMIN', email } }), 201);
    const token = created.url.split('/invite/')[1]!;

    const impostor = await signedIn('partner', email);
    expect(await okBody(hub.call('listMyInvitations', { cookie: impostor }))).toEqual({ invitations: [] });
    const byLink = await hub.call('acceptInvitation', { path: { token }, cookie: impostor });
    expectError(byLink, 403, 'invitation_email_mismatch');
    const byId = await hub.call('acceptMyInvitation', { path: { invitationId: created.id }, cookie: impostor });
    expectError(byId, 404, 'invitation_not_found');
    expect(await hub.services.db('memberships').where({ organization_id: org.id })).toHaveLength(3);

    const bob = await signedIn('corp', email);
    const joined = await okBody(hub.call('acceptInvitation', { path: { token }, cookie: bob }));
    expect(joined.member.role).toBe('ADMIN');
  });

  it('may be made only for a verified domain of the organization', async () => {
    const org = await seedOrg(hub, unique('trust'));
    const pending = await okBody(org.call('owner', 'addDomain', { body: { domain: `${unique('p')}.example` } }), 201);
    for (const email of [`ada@${pending.domain}`, 'ada@elsewhere.example']) {
      const res = await org.call('owner', 'createInvitation', { body: { role: 'MEMBER', email } });
      expectError(res, 422, 'domain_not_verified');
      expect(errorBody(res).error.message).toContain('is not a verified domain of this organization');
    }
    expect(await hub.services.db('invitations').where({ organization_id: org.id })).toHaveLength(0);
    // A link without an address needs no domain.
    await okBody(org.call('owner', 'createInvitation', { body: { role: 'MEMBER' } }), 201);
  });
});

describe('the list of invitations', () => {
  it('is filtered by the status shown and paged newest first by the database', async () => {
    const org = await seedOrg(hub, unique('list'));
    const create = (expiresInDays = 7) =>
      okBody(org.call('owner', 'createInvitation', { body: { role: 'MEMBER', expiresInDays } }), 201);
    const expiring = await create(1);
    hub.clock.advance(DAY_MS);
    const pending = await create();
    hub.clock.advance(1000);
    const revoked = await create();
    await okBody(org.call('owner', 'revokeInvitation', { path: { invitationId: revoked.id } }));
    const ids = async (query: { status?: 'pending' | 'expired' | 'revoked'; limit?: number; cursor?: string }) => {
      const page = await okBody(org.call('owner', 'listInvitations', { query }));
      return { ids: page.invitations.map((i) => i.id), statuses: page.invitations.map((i) => i.status), page };
    };
    expect((await ids({ status: 'expired' })).ids).toEqual([expiring.id]);
    expect((await ids({ status: 'pending' })).ids).toEqual([pending.id]);
    expect((await ids({ status: 'revoked' })).ids).toEqual([revoked.id]);
    const first = await ids({ limit: 2 });
    expect(first.ids).toEqual([revoked.id, pending.id]);
    const rest = await ids({ limit: 2, cursor: first.page.nextCursor! });
    expect(rest).toMatchObject({ ids: [expiring.id], statuses: ['expired'], page: { nextCursor: null } });
    expectError(await org.call('owner', 'listInvitations', { query: { cursor: 'bm9wZQ' } }), 400, 'validation_failed');
  });
});

describe('pending invitations', () => {
  it(`are at most ${MAX_PENDING_INVITATIONS} per organization; expired, used, revoked do not count`, async () => {
    const org = await seedOrg(hub, unique('cap'));
    const now = hub.clock.now().getTime();
    const row = (i: number, status: string, expiresAt: number) => ({
      id: randomUUID(),
      organization_id: org.id,
      token_hash: createHash('sha256').update(`${org.id}-${i}`).digest('hex'),
      role: 'MEMBER',
      team_ids: '[]',
      email: null,
      status,
      created_by: null,
      created_at: new Date(now - 1000).toISOString(),
      expires_at: new Date(expiresAt).toISOString(),
      accepted_by: null,
      accepted_at: null,
      revoked_at: null,
    });
    const rows = [
      ...Array.from({ length: MAX_PENDING_INVITATIONS - 1 }, (_, i) => row(i, 'pending', now + DAY_MS)),
      row(-1, 'pending', now - 1),
      row(-2, 'revoked', now + DAY_MS),
    ];
    for (let i = 0; i < rows.length; i += 100) await hub.services.db('invitations').insert(rows.slice(i, i + 100));
    await okBody(org.call('owner', 'createInvitation', { body: { role: 'MEMBER' } }), 201);
    const full = await org.call('admin', 'createInvitation', { body: { role: 'MEMBER' } });
    expectError(full, 409, 'capacity_exceeded');
    expect(errorBody(full).error.message).toContain(`at most ${MAX_PENDING_INVITATIONS} pending invitations`);
    // One revoked makes room for one.
    const [one] = (await okBody(org.call('owner', 'listInvitations', { query: { status: 'pending', limit: 1 } })))
      .invitations;
    await okBody(org.call('owner', 'revokeInvitation', { path: { invitationId: one!.id } }));
    await okBody(org.call('owner', 'createInvitation', { body: { role: 'MEMBER' } }), 201);
  });
});
