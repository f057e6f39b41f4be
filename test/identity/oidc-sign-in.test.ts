import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/services.js';
import { MINUTE_MS } from '../../src/config/clock.js';
import { createApp } from '../../src/http/app.js';
import { createLogger } from '../../src/log/logger.js';
import { newSigningKey, TestOpenIdProvider } from '../support/openid-provider.js';
import {
  setProvider,
  signInAtProvider,
  signInHub,
  signInRowCounts,
  signInThrough,
  startSignIn,
  testBrowser,
} from '../support/sign-in-flow.js';
import { locationOf, type TestBrowser } from '../support/test-browser.js';
import { TEST_ORIGIN, TestHub } from '../support/test-hub.js';

const SECRET = 'oidc-client-secret-for-tests';
let hub: TestHub;
let idp: TestOpenIdProvider;
const browser = () => testBrowser(hub);

beforeAll(async () => {
  // The flood's own tests below use a low limit; these walk many sign-ins from one address.
  hub = await signInHub({ signInRatePerMinute: 10_000 });
  idp = await TestOpenIdProvider.start({
    clientId: 'hub',
    clientSecret: SECRET,
    redirectUris: ['corp', 'strict', 'off'].map((id) => `${TEST_ORIGIN}/auth/${id}/callback`),
  });
  // corp speaks for the imOpenId namespace: its subjects are members' imOpenIds.
  await setProvider(hub, { id: 'corp', kind: 'oidc', issuer: idp.issuer, linksImOpenId: true }, SECRET);
  await setProvider(
    hub,
    { id: 'strict', kind: 'oidc', issuer: idp.issuer, allowedTenants: 't1', allowedEmailDomains: 'example.com' },
    SECRET,
  );
});

afterAll(async () => {
  await idp?.stop();
  await hub?.stop();
});

const counts = () => signInRowCounts(hub);

/** A refusal: the browser is sent to the sign-in page with the code, and holds no session. */
async function expectRefused(answer: Response, b: TestBrowser, code: string): Promise<void> {
  expect(answer.status).toBe(303);
  expect(answer.headers.get('location')).toBe(`/signin?error=${code}`);
  expect(answer.headers.get('x-sign-in-error')).toBe(code);
  expect(b.cookie(TEST_ORIGIN, 'hub_session')).toBeUndefined();
}

describe('OpenID Connect sign-in', () => {
  it('lists the enabled providers for the sign-in page', async () => {
    const res = await hub.call('listSignInProviders');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      providers: [
        { id: 'corp', label: 'Sign in with corp', kind: 'oidc' },
        { id: 'strict', label: 'Sign in with strict', kind: 'oidc' },
      ],
      loginLinks: 'on',
    });
  });

  it('signs a new person in, with the session cookie of a login link, and lands on returnTo', async () => {
    idp.addAccount('alice', {
      name: 'Alice Example',
      picture: 'https://images.example.com/alice.png',
      email: 'alice@example.com',
      email_verified: true,
    });
    const b = browser();
    const answer = await signInThrough(b, 'corp', 'alice', '/o/acme/teams?tab=2');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/o/acme/teams?tab=2');
    const cookies = answer.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith('hub_session='))).toMatch(/HttpOnly/);
    expect(cookies.find((c) => c.startsWith('hub_signin='))).toMatch(/Expires=Thu, 01 Jan 1970/);
    const me = await hub.call('getMe', { cookie: b.cookieHeader(TEST_ORIGIN) });
    expect(me.body).toMatchObject({
      user: { imOpenId: 'alice', displayName: 'Alice Example', avatarUrl: 'https://images.example.com/alice.png' },
      organizations: [],
    });
    const identity = await hub.services.db('user_identities').where({ provider_id: 'corp', subject: 'alice' }).first();
    expect(identity).toMatchObject({ email: 'alice@example.com' });
    expect(Boolean(identity.email_verified)).toBe(true);
  });

  it('links a member added by imOpenId, refreshes the name from the provider, keeps the membership', async () => {
    const org = await hub.createOrg('linked', 'owner-of-linked');
    await hub.addMembership(org.id, 'dave', 'MEMBER');
    idp.addAccount('dave', { name: 'Dave from the provider' });
    const b = browser();
    const answer = await signInThrough(b, 'corp', 'dave');
    expect(answer.headers.get('location')).toBe('/');
    const me = await hub.call('getMe', { cookie: b.cookieHeader(TEST_ORIGIN) });
    expect(me.body).toMatchObject({
      user: { imOpenId: 'dave', displayName: 'Dave from the provider' },
      organizations: [{ slug: 'linked', role: 'MEMBER' }],
    });
  });

  it('never links by email alone: another subject with the same verified email is another user', async () => {
    idp.addAccount('erin-1', { email: 'erin@example.com', email_verified: true });
    idp.addAccount('erin-2', { email: 'erin@example.com', email_verified: true });
    const first = browser();
    await signInThrough(first, 'corp', 'erin-1');
    const second = browser();
    await signInThrough(second, 'corp', 'erin-2');
    const a = await hub.call('getMe', { cookie: first.cookieHeader(TEST_ORIGIN) });
    const b = await hub.call('getMe', { cookie: second.cookieHeader(TEST_ORIGIN) });
    expect((a.body as { user: { id: string } }).user.id).not.toBe((b.body as { user: { id: string } }).user.id);
  });

  it('ends the session the browser had before, as a login link does', async () => {
    idp.addAccount('frank');
    const b = browser();
    const cookie = await hub.login('owner-of-linked');
    b.setCookie(TEST_ORIGIN, 'hub_session', cookie.split('=')[1]!);
    await signInThrough(b, 'corp', 'frank');
    expect((await hub.call('getMe', { cookie })).status).toBe(401);
  });

  it('refuses a callback without state, with an unknown state, and a replayed one', async () => {
    idp.addAccount('gina');
    const before = await counts();
    const b = browser();
    const callback = await signInAtProvider(b, await startSignIn(b, 'corp'), 'gina');
    const token = b.cookie(TEST_ORIGIN, 'hub_signin')!;
    const withoutState = new URL(callback);
    withoutState.searchParams.delete('state');
    await expectRefused(await b.request(withoutState.href), b, 'state_invalid');
    const unknown = new URL(callback);
    unknown.searchParams.set('state', 'not-a-state-this-service-issued');
    await expectRefused(await b.request(unknown.href), b, 'state_invalid');
    expect(await counts()).toEqual(before);
    // The real callback still works once; the same state a second time does not.
    b.setCookie(TEST_ORIGIN, 'hub_signin', token);
    expect((await b.request(callback)).headers.get('location')).toBe('/');
    const signedIn = await counts();
    b.forget(TEST_ORIGIN, 'hub_session');
    b.setCookie(TEST_ORIGIN, 'hub_signin', token);
    await expectRefused(await b.request(callback), b, 'state_invalid');
    expect(await counts()).toEqual(signedIn);
  });

  it('refuses a callback from another browser: without hub_signin, or with another one', async () => {
    idp.addAccount('hank');
    const before = await counts();
    const victim = browser();
    const callback = await signInAtProvider(victim, await startSignIn(victim, 'corp'), 'hank');
    const stranger = browser();
    await expectRefused(await stranger.request(callback), stranger, 'state_invalid');
    const other = browser();
    await startSignIn(other, 'corp');
    await expectRefused(await other.request(callback), other, 'state_invalid');
    expect(await counts()).toEqual(before);
  });

  it('refuses a sign-in that took longer than 10 minutes', async () => {
    idp.addAccount('ivy');
    const before = await counts();
    const b = browser();
    const authorization = await startSignIn(b, 'corp');
    hub.clock.advance(10 * MINUTE_MS + 1000);
    const callback = await signInAtProvider(b, authorization, 'ivy');
    await expectRefused(await b.request(callback), b, 'signin_expired');
    expect(await counts()).toEqual(before);
  });

  it("lands the provider's own refusal on the sign-in page", async () => {
    const b = browser();
    const state = new URL(await startSignIn(b, 'corp')).searchParams.get('state')!;
    const callback = `${TEST_ORIGIN}/auth/corp/callback?error=access_denied&state=${state}`;
    await expectRefused(await b.request(callback), b, 'provider_denied');
  });

  it('refuses unknown and disabled providers', async () => {
    const b = browser();
    await expectRefused(await b.request(`${TEST_ORIGIN}/auth/nobody/start`), b, 'provider_unavailable');
    await setProvider(hub, { id: 'off', kind: 'oidc', issuer: idp.issuer }, SECRET);
    const state = new URL(await startSignIn(b, 'off')).searchParams.get('state')!;
    expect(await hub.services.identityProviders.disable('off')).toBe(true);
    await expectRefused(await b.request(`${TEST_ORIGIN}/auth/off/start`), b, 'provider_unavailable');
    await expectRefused(
      await b.request(`${TEST_ORIGIN}/auth/off/callback?code=x&state=${state}`),
      b,
      'provider_unavailable',
    );
    const listed = await hub.call('listSignInProviders');
    expect((listed.body as { providers: Array<{ id: string }> }).providers.map((p) => p.id)).not.toContain('off');
  });

  it('keeps returnTo on this origin: every open-redirect form becomes /', async () => {
    const attempts = [
      '//evil.example/x',
      'https://evil.example/',
      '/\\evil.example',
      '\\\\evil.example',
      '/%2F%2Fevil.example',
      '%2F%2Fevil.example',
      '/%5Cevil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
      'evil.example',
    ];
    for (const returnTo of attempts) {
      const b = browser();
      const state = new URL(await startSignIn(b, 'corp', returnTo)).searchParams.get('state')!;
      const row = await hub.services.db('pending_sign_ins').orderBy('created_at', 'desc').first();
      expect(row.return_to, returnTo).toBe('/');
      expect(state).toBeTruthy();
    }
    idp.addAccount('jack');
    const answer = await signInThrough(browser(), 'corp', 'jack', '//evil.example/x');
    expect(answer.headers.get('location')).toBe('/');
  });

  it('lands on / for returnTo spellings whose resolved path would leave this origin', async () => {
    idp.addAccount('dot-segments');
    for (const returnTo of [
      '/.//evil.example',
      '/a/..//evil.example',
      '/%2e//evil.example',
      '/..//evil.example',
      '/%2E%2E//evil.example',
    ]) {
      const answer = await signInThrough(browser(), 'corp', 'dot-segments', returnTo);
      expect(answer.status, returnTo).toBe(303);
      expect(answer.headers.get('location'), returnTo).toBe('/');
    }
  });

  it("applies the provider's tenant and email-domain allow-lists", async () => {
    idp.addAccount('kim', { tid: 't1', email: 'kim@other.example', email_verified: true });
    idp.addAccount('lee', { tid: 't2', email: 'lee@example.com', email_verified: true });
    idp.addAccount('max', { tid: 't1', email: 'max@example.com', email_verified: false });
    idp.addAccount('nia', { email: 'nia@example.com', email_verified: true });
    idp.addAccount('ola', { tid: 't1', email: 'ola@example.com', email_verified: true });
    const before = await counts();
    for (const [login, code] of [
      ['kim', 'email_domain_not_allowed'],
      ['lee', 'tenant_not_allowed'],
      ['max', 'email_domain_not_allowed'],
      ['nia', 'tenant_not_allowed'],
    ] as const) {
      const b = browser();
      await expectRefused(await signInThrough(b, 'strict', login), b, code);
    }
    expect(await counts()).toEqual(before);
    const ok = await signInThrough(browser(), 'strict', 'ola');
    expect(ok.headers.get('location')).toBe('/');
  });

  it('refuses an ID token with a wrong issuer, audience or nonce, or expired, though correctly signed', async () => {
    idp.addAccount('pat');
    const before = await counts();
    const past = Math.floor(Date.now() / 1000) - 3600;
    const cases: Array<[string, (claims: Record<string, unknown>) => Record<string, unknown>]> = [
      ['issuer', (claims) => ({ ...claims, iss: 'http://127.0.0.1:9/another-issuer' })],
      ['audience', (claims) => ({ ...claims, aud: 'another-client' })],
      ['nonce', (claims) => ({ ...claims, nonce: 'a-nonce-of-another-sign-in' })],
      ['expiry', (claims) => ({ ...claims, iat: past - 60, exp: past })],
    ];
    try {
      for (const [what, tamper] of cases) {
        idp.tamper = tamper;
        const b = browser();
        const answer = await signInThrough(b, 'corp', 'pat');
        expect(answer.headers.get('location'), what).toBe('/signin?error=token_invalid');
        expect(b.cookie(TEST_ORIGIN, 'hub_session'), what).toBeUndefined();
      }
      expect(await counts()).toEqual(before);
      // The same re-signing with the claims left alone verifies: only the claims were refused.
      idp.tamper = (claims) => claims;
      expect((await signInThrough(browser(), 'corp', 'pat')).headers.get('location')).toBe('/');
    } finally {
      idp.tamper = undefined;
    }
  });

  it('verifies ID tokens after the provider rotates its signing keys, its key set cached until then', async () => {
    idp.addAccount('quinn');
    expect((await signInThrough(browser(), 'corp', 'quinn')).headers.get('location')).toBe('/');
    const fetched = idp.jwksRequests;
    expect((await signInThrough(browser(), 'corp', 'quinn')).headers.get('location')).toBe('/');
    expect(idp.jwksRequests).toBe(fetched);
    idp.rotateKeys();
    expect((await signInThrough(browser(), 'corp', 'quinn')).headers.get('location')).toBe('/');
    expect(idp.jwksRequests).toBe(fetched + 1);
    expect((await signInThrough(browser(), 'corp', 'quinn')).headers.get('location')).toBe('/');
    expect(idp.jwksRequests).toBe(fetched + 1);
  });

  it('refuses an ID token signed with a key the provider does not publish, under any kid', async () => {
    idp.addAccount('forged');
    const before = await counts();
    const published = idp.keys[0]!;
    try {
      for (const [what, key] of [
        ['a kid of its own', newSigningKey()],
        ["the provider's kid", { ...newSigningKey(), kid: published.kid }],
      ] as const) {
        idp.forgeWith = key;
        const b = browser();
        const answer = await signInThrough(b, 'corp', 'forged');
        expect(answer.headers.get('location'), what).toBe('/signin?error=token_invalid');
        expect(b.cookie(TEST_ORIGIN, 'hub_session'), what).toBeUndefined();
      }
      expect(await counts()).toEqual(before);
      // The provider's own key verifies: only the signature was refused.
      idp.forgeWith = published;
      expect((await signInThrough(browser(), 'corp', 'forged')).headers.get('location')).toBe('/');
    } finally {
      idp.forgeWith = undefined;
    }
  });

  it('finishes on another instance sharing the database (the pending sign-in is server-side)', async () => {
    idp.addAccount('rae');
    const services = createServices({
      config: hub.services.config,
      db: hub.database.db,
      clock: hub.clock,
      logger: createLogger({ level: 'silent' }),
    });
    const app = createApp(services);
    const second: Server = await new Promise((resolve) => {
      const s = http.createServer(app).listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const b = browser();
      const callback = await signInAtProvider(b, await startSignIn(b, 'corp', '/o/x'), 'rae');
      const path = new URL(callback);
      const other = `http://127.0.0.1:${(second.address() as AddressInfo).port}${path.pathname}${path.search}`;
      const answer = await fetch(other, { headers: { cookie: b.cookieHeader(TEST_ORIGIN) }, redirect: 'manual' });
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe('/o/x');
      const session = answer.headers
        .getSetCookie()
        .find((c) => c.startsWith('hub_session='))!
        .split(';')[0]!;
      expect((await hub.call('getMe', { cookie: session })).status).toBe(200);
    } finally {
      second.closeAllConnections();
      await new Promise((resolve) => second.close(resolve));
    }
  });

  it('signs nobody in via an http issuer without HUB_OUTBOUND_ALLOW_PRIVATE (as set refuses)', async () => {
    // The providers of this file were set with http allowed (their issuer is on loopback); an
    // instance without the setting applies the same rule at sign-in.
    const services = createServices({
      config: { ...hub.services.config, outboundAllowPrivate: false },
      db: hub.database.db,
      clock: hub.clock,
      logger: createLogger({ level: 'silent' }),
    });
    const strict: Server = await new Promise((resolve) => {
      const s = http.createServer(createApp(services)).listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const base = `http://127.0.0.1:${(strict.address() as AddressInfo).port}`;
      const listed = await fetch(`${base}/auth/providers`);
      expect(await listed.json()).toEqual({ providers: [], loginLinks: 'on' });
      const before = await counts();
      const start = await fetch(`${base}/auth/corp/start`, { redirect: 'manual' });
      expect(start.status).toBe(303);
      expect(start.headers.get('location')).toBe('/signin?error=provider_unavailable');
      expect(start.headers.get('location')).not.toContain(idp.issuer);
      expect(await counts()).toEqual(before);
      expect(services.identityProviders.endpointProblem({ kind: 'oidc', endpoint: idp.issuer })).toBe(
        'its issuer must be an https URL (http only with HUB_OUTBOUND_ALLOW_PRIVATE=1)',
      );
    } finally {
      strict.closeAllConnections();
      await new Promise((resolve) => strict.close(resolve));
    }
    // This instance, which allows http, still signs people in through it.
    expect((await hub.call('listSignInProviders')).body).toMatchObject({
      providers: [{ id: 'corp' }, { id: 'strict' }],
    });
  });

  it('counts sign-ins by provider and outcome in /metrics', async () => {
    const metrics = await hub.request('GET', '/metrics', { headers: { accept: 'text/plain' } });
    expect(metrics.text).toMatch(/hub_sign_ins_total\{provider="corp",outcome="success"\} [1-9]/);
    expect(metrics.text).toMatch(/hub_sign_ins_total\{provider="corp",outcome="state_invalid"\} [1-9]/);
    expect(metrics.text).toMatch(/hub_sign_ins_total\{provider="strict",outcome="tenant_not_allowed"\} [1-9]/);
    expect(metrics.text).toMatch(/hub_sign_ins_total\{provider="unknown",outcome="provider_unavailable"\} [1-9]/);
  });
});

describe('sign-in flood', () => {
  it('answers 429 with Retry-After once one address makes too many attempts, until the minute is over', async () => {
    const limited = await signInHub({ signInRatePerMinute: 5 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i += 1) {
        const res = await limited.request('GET', '/auth/anything/start');
        statuses.push(res.status);
        if (res.status === 429) {
          expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(res.body).toMatchObject({ error: { code: 'rate_limited' } });
        }
      }
      expect(statuses).toEqual([303, 303, 303, 303, 303, 429, 429, 429]);
      // The list of providers is not a sign-in attempt.
      expect((await limited.call('listSignInProviders')).status).toBe(200);
      limited.clock.advance(MINUTE_MS);
      expect((await limited.request('GET', '/auth/anything/start')).status).toBe(303);
    } finally {
      await limited.stop();
    }
  });

  it('counts the client address behind a trusted proxy from X-Forwarded-For', async () => {
    const proxied = await TestHub.start({ config: { signInRatePerMinute: 2, trustedProxies: ['127.0.0.1'] } });
    try {
      const from = (address: string) =>
        proxied.request('GET', '/auth/anything/start', { headers: { 'x-forwarded-for': `203.0.113.9, ${address}` } });
      expect((await from('198.51.100.1')).status).toBe(303);
      expect((await from('198.51.100.1')).status).toBe(303);
      expect((await from('198.51.100.1')).status).toBe(429);
      expect((await from('198.51.100.2')).status).toBe(303);
    } finally {
      await proxied.stop();
    }
  });
});

describe('callback responses', () => {
  it('the location of a refused start is a path of this origin', async () => {
    const res = await hub.request('GET', '/auth/nobody/start?returnTo=%2F%2Fevil');
    expect(locationOf(res as unknown as Response, TEST_ORIGIN)).toBe(
      `${TEST_ORIGIN}/signin?error=provider_unavailable`,
    );
  });
});
