import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LarkContractServer } from '../support/lark-server.js';
import { setProvider, signInHub, signInRowCounts, startSignIn, testBrowser } from '../support/sign-in-flow.js';
import { locationOf, type TestBrowser } from '../support/test-browser.js';
import { TEST_ORIGIN, type TestHub } from '../support/test-hub.js';

const APP = { id: 'cli_a1b2c3d4e5', secret: 'lark-app-secret-for-tests' };
let hub: TestHub;
let lark: LarkContractServer;

beforeAll(async () => {
  hub = await signInHub();
  lark = await LarkContractServer.start(APP);
  await setProvider(
    hub,
    {
      id: 'lark',
      kind: 'lark',
      baseUrl: lark.baseUrl,
      clientId: APP.id,
      allowedTenants: 'tenant-acme',
      linksImOpenId: true,
    },
    APP.secret,
  );
});

afterAll(async () => {
  await lark?.stop();
  await hub?.stop();
});

/** Start, the platform's consent (it sends the browser straight back), and the callback. */
async function signIn(b: TestBrowser, returnTo?: string): Promise<Response> {
  const authorization = await startSignIn(b, 'lark', returnTo);
  expect(new URL(authorization).pathname).toBe('/open-apis/authen/v1/authorize');
  const consent = await b.request(authorization);
  return b.request(locationOf(consent, authorization));
}

const counts = () => signInRowCounts(hub);
const browser = () => testBrowser(hub);

describe('sign-in with the chat platform (lark)', () => {
  it('signs in a member an admin added by open_id: memberships kept, name and avatar from the platform', async () => {
    const org = await hub.createOrg('acme', 'ou_owner');
    await hub.addMembership(org.id, 'ou_7d8a6e6df7621556ce0d21922b676706', 'ADMIN');
    lark.signedIn = {
      open_id: 'ou_7d8a6e6df7621556ce0d21922b676706',
      union_id: 'on_98e5a6b3c1',
      name: 'Zhang San',
      avatar_url: 'https://s1-imfile.feishucdn.com/avatar.png',
      tenant_key: 'tenant-acme',
    };
    const b = browser();
    const answer = await signIn(b, '/o/acme/members');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/o/acme/members');
    const me = await hub.call('getMe', { cookie: b.cookieHeader(TEST_ORIGIN) });
    expect(me.body).toMatchObject({
      user: { displayName: 'Zhang San', avatarUrl: 'https://s1-imfile.feishucdn.com/avatar.png' },
      organizations: [{ slug: 'acme', role: 'ADMIN' }],
    });
  });

  it("lands a non-zero code from the platform's token endpoint on the sign-in page, changing nothing", async () => {
    lark.signedIn = { open_id: 'ou_other', union_id: 'on_other', name: 'Li Si', tenant_key: 'tenant-acme' };
    lark.failTokenWith = 20024;
    try {
      const before = await counts();
      const b = browser();
      const answer = await signIn(b);
      expect(answer.headers.get('location')).toBe('/signin?error=provider_failed');
      expect(b.cookie(TEST_ORIGIN, 'hub_session')).toBeUndefined();
      expect(await counts()).toEqual(before);
    } finally {
      lark.failTokenWith = undefined;
    }
  });

  it('fails closed on tenants: one not in the allow-list, or none named, signs nobody in', async () => {
    const before = await counts();
    for (const tenant of ['tenant-elsewhere', undefined]) {
      lark.signedIn = { open_id: 'ou_outsider', union_id: 'on_outsider', name: 'Outsider', tenant_key: tenant };
      const b = browser();
      const answer = await signIn(b);
      expect(answer.headers.get('location'), String(tenant)).toBe('/signin?error=tenant_not_allowed');
      expect(b.cookie(TEST_ORIGIN, 'hub_session')).toBeUndefined();
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses a code exchanged without the verifier of the browser that started (another hub_signin)', async () => {
    lark.signedIn = { open_id: 'ou_victim', union_id: 'on_victim', name: 'Victim', tenant_key: 'tenant-acme' };
    const victim = browser();
    const authorization = await startSignIn(victim, 'lark');
    const callback = locationOf(await victim.request(authorization), authorization);
    const attacker = browser();
    await startSignIn(attacker, 'lark');
    const answer = await attacker.request(callback);
    expect(answer.headers.get('location')).toBe('/signin?error=state_invalid');
  });
});
