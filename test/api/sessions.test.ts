import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, MINUTE_MS } from '../../src/config/clock.js';
import { hashToken } from '../../src/auth/tokens.js';
import { errorBody, expectOk } from '../support/assertions.js';
import { TestHub } from '../support/test-hub.js';

let hub: TestHub;

beforeAll(async () => {
  hub = await TestHub.start();
  await hub.createOrg('acme', 'alice');
});
afterAll(() => hub.stop());

describe('GET /auth/login', () => {
  it('redeems a link: 303 to / with a hub_session cookie carrying every decided attribute', async () => {
    const res = await hub.call('login', { query: { token: await hub.loginToken('alice') } });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    const cookie = res.headers.get('set-cookie')!;
    const [pair, ...attributes] = cookie.split(';').map((s) => s.trim());
    expect(pair).toMatch(/^hub_session=[A-Za-z0-9_-]{43}$/);
    expect(attributes).toContain('HttpOnly');
    expect(attributes).toContain('SameSite=Lax');
    expect(attributes).toContain('Path=/');
    expect(attributes).toContain(`Max-Age=${14 * 24 * 60 * 60}`);
    expect(attributes.some((a) => /^Domain=/i.test(a))).toBe(false);
    // The test server's base URL is http, so the cookie must not be Secure.
    expect(attributes).not.toContain('Secure');
  });

  it('sets Secure when the base URL is https', async () => {
    const secureHub = await TestHub.start({ config: { baseUrl: 'https://hub.test' } });
    try {
      await secureHub.createOrg('s', 'sam');
      const res = await secureHub.call('login', { query: { token: await secureHub.loginToken('sam') } });
      expect(res.status).toBe(303);
      expect(res.headers.get('set-cookie')).toMatch(/;\s*Secure/);
    } finally {
      await secureHub.stop();
    }
  });

  it('issues a new token at every login, and the token is stored only as its SHA-256', async () => {
    const first = await hub.login('alice');
    const second = await hub.login('alice');
    expect(first).not.toBe(second);
    const token = first.slice('hub_session='.length);
    const rows = await hub.services.db('login_sessions').select('token_hash');
    const stored = rows.map((r) => r.token_hash as string);
    expect(stored).toContain(hashToken(token));
    expect(stored).not.toContain(token);
  });

  it('refuses a link used once already, with no cookie', async () => {
    const token = await hub.loginToken('alice');
    expect((await hub.call('login', { query: { token } })).status).toBe(303);
    const again = await hub.call('login', { query: { token } });
    expect(again.status).toBe(401);
    expect(errorBody(again).error.code).toBe('unauthenticated');
    expect(again.headers.get('set-cookie')).toBeNull();
  });

  it('refuses an expired link (15 minutes) and an unknown one', async () => {
    const token = await hub.loginToken('alice');
    hub.clock.advance(15 * MINUTE_MS);
    const expired = await hub.call('login', { query: { token } });
    expect(expired.status).toBe(401);
    expect(errorBody(expired).error.code).toBe('unauthenticated');
    expect(expired.headers.get('set-cookie')).toBeNull();

    const unknown = await hub.call('login', { query: { token: 'not-a-real-token' } });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('set-cookie')).toBeNull();
  });

  it('accepts a link just before it expires', async () => {
    const token = await hub.loginToken('alice');
    hub.clock.advance(15 * MINUTE_MS - 1000);
    expect((await hub.call('login', { query: { token } })).status).toBe(303);
  });

  it('needs the token parameter', async () => {
    const res = await hub.request('GET', '/auth/login');
    expect(res.status).toBe(400);
    expect(errorBody(res).error.code).toBe('validation_failed');
  });

  it('ends the session the browser had before logging in again', async () => {
    const old = await hub.login('alice');
    const res = await hub.call('login', { query: { token: await hub.loginToken('alice') }, cookie: old });
    expect(res.status).toBe(303);
    expect((await hub.call('getMe', { cookie: old })).status).toBe(401);
  });
});

describe('session lifetime', () => {
  it('answers 401 unauthenticated without a cookie, or with an unknown one', async () => {
    for (const cookie of [undefined, 'hub_session=bogus', 'other=1']) {
      const res = await hub.call('getMe', { cookie });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: 'unauthenticated', message: expect.any(String) } });
    }
  });

  it('expires after 3 idle days', async () => {
    const cookie = await hub.login('alice');
    hub.clock.advance(3 * DAY_MS - MINUTE_MS);
    expect((await hub.call('getMe', { cookie })).status).toBe(200);
    // That request slid the idle window: another almost-3-day gap is still fine.
    hub.clock.advance(3 * DAY_MS - MINUTE_MS);
    expect((await hub.call('getMe', { cookie })).status).toBe(200);
    hub.clock.advance(3 * DAY_MS);
    expect((await hub.call('getMe', { cookie })).status).toBe(401);
  });

  it('expires 14 days after login however active it is', async () => {
    const cookie = await hub.login('alice');
    for (let day = 0; day < 13; day++) {
      hub.clock.advance(DAY_MS);
      expect((await hub.call('getMe', { cookie })).status).toBe(200);
    }
    hub.clock.advance(DAY_MS);
    const res = await hub.call('getMe', { cookie });
    expect(res.status).toBe(401);
    expect(errorBody(res).error.code).toBe('unauthenticated');
  });
});

describe('POST /auth/logout', () => {
  it('deletes the server-side session and clears the cookie', async () => {
    const cookie = await hub.login('alice');
    const token = cookie.slice('hub_session='.length);
    const res = await hub.call('logout', { cookie });
    expectOk(res, 204);
    expect(res.text).toBe('');
    expect(res.headers.get('set-cookie')).toMatch(/^hub_session=;.*Expires=Thu, 01 Jan 1970/);
    expect(
      await hub.services
        .db('login_sessions')
        .where({ token_hash: hashToken(token) })
        .first(),
    ).toBeUndefined();
    expect((await hub.call('getMe', { cookie })).status).toBe(401);
  });

  it('needs a session', async () => {
    const res = await hub.call('logout');
    expect(res.status).toBe(401);
    expect(errorBody(res).error.code).toBe('unauthenticated');
  });

  it('leaves the user’s other sessions alone', async () => {
    const a = await hub.login('alice');
    const b = await hub.login('alice');
    expect((await hub.call('logout', { cookie: a })).status).toBe(204);
    expect((await hub.call('getMe', { cookie: b })).status).toBe(200);
  });
});

describe('pages for people', () => {
  it('shows a browser a page, not JSON, for a stale login link', async () => {
    const res = await hub.call('login', {
      query: { token: 'stale' },
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('already used');
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('serves the contract at /openapi.yaml', async () => {
    const res = await hub.request('GET', '/openapi.yaml');
    expectOk(res);
    expect(res.text).toMatch(/^openapi: 3\.1\.0/m);
  });
});
