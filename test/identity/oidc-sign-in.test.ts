import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestOpenIdProvider } from '../support/openid-provider.js';
import { setProvider, signInThrough } from '../support/sign-in-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { TEST_ORIGIN, TestHub } from '../support/test-hub.js';

const SECRET = 'oidc-client-secret-for-tests';
let hub: TestHub;
let idp: TestOpenIdProvider;
const browser = () => new TestBrowser({ [TEST_ORIGIN]: hub.url });

beforeAll(async () => {
  hub = await TestHub.start({ config: { outboundAllowPrivate: true } });
  idp = await TestOpenIdProvider.start({
    clientId: 'hub',
    clientSecret: SECRET,
    redirectUris: [`${TEST_ORIGIN}/auth/corp/callback`],
  });
  await setProvider(hub, { id: 'corp', kind: 'oidc', issuer: idp.issuer }, SECRET);
});

afterAll(async () => {
  await idp?.stop();
  await hub?.stop();
});

describe('OpenID Connect sign-in', () => {
  it('signs a new person in and lands on returnTo', async () => {
    idp.addAccount('alice', { name: 'Alice Example', email: 'alice@example.com', email_verified: true });
    const b = browser();
    const answer = await signInThrough(b, 'corp', 'alice', '/o/acme/teams');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/o/acme/teams');
    const cookie = b.cookieHeader(TEST_ORIGIN);
    const me = await hub.call('getMe', { cookie });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user: { imOpenId: 'alice', displayName: 'Alice Example' }, organizations: [] });
  });
});
