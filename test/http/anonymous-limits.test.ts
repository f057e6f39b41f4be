import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MINUTE_MS } from '../../src/config/clock.js';
import { expectError, okBody } from '../support/assertions.js';
import type { HttpResult } from '../support/api-client.js';
import { TestHub } from '../support/test-hub.js';

const LIMIT = 3;
let hub: TestHub;
let ownerCookie: string;

beforeEach(async () => {
  hub = await TestHub.start({ config: { authFailureRatePerMinute: LIMIT } });
  await hub.createOrg('acme', 'acme-owner');
  ownerCookie = await hub.login('acme-owner');
});
afterEach(() => hub.stop());

const BAD_TOKEN = `Bearer hubt_${'x'.repeat(43)}`;
const withBearer = (authorization: string, headers: Record<string, string> = {}) =>
  hub.request('GET', '/api/org/acme', { headers: { authorization, ...headers } });

function expectTooMany(res: HttpResult): void {
  expectError(res, 429, 'rate_limited');
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe('refused API tokens, per client address', () => {
  it('are answered 429 with Retry-After past the limit, until the minute is over', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 3; i += 1) {
      const res = await withBearer(BAD_TOKEN);
      statuses.push(res.status);
      if (res.status === 429) expectTooMany(res);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
    hub.clock.advance(MINUTE_MS);
    expectError(await withBearer(BAD_TOKEN), 401, 'token_invalid');
  });

  it('hold back no good token and no session from the same address', async () => {
    const { token } = await okBody(
      hub.orgCall('acme', ownerCookie, 'createApiToken', { body: { name: 'script', scopes: ['org:read'] } }),
      201,
    );
    for (let i = 0; i < LIMIT + 2; i += 1) await withBearer(BAD_TOKEN);
    expectTooMany(await withBearer(BAD_TOKEN));
    for (let i = 0; i < LIMIT + 2; i += 1) {
      expect((await withBearer(`Bearer ${token}`)).status).toBe(200);
      expect((await hub.orgCall('acme', ownerCookie, 'getOrganization')).status).toBe(200);
    }
  });

  it('count the address behind a trusted proxy from X-Forwarded-For', async () => {
    await hub.stop();
    hub = await TestHub.start({ config: { authFailureRatePerMinute: 1, trustedProxies: ['127.0.0.1'] } });
    await hub.createOrg('acme', 'acme-owner');
    const from = (address: string) => withBearer(BAD_TOKEN, { 'x-forwarded-for': `203.0.113.9, ${address}` });
    expect((await from('198.51.100.1')).status).toBe(401);
    expectTooMany(await from('198.51.100.1'));
    expect((await from('198.51.100.2')).status).toBe(401);
  });
});

describe('login links, per client address', () => {
  const login = (token: string) => hub.call('login', { query: { token } });

  it('are refused 429 once the address failed too often, a good link too, until the minute is over', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i += 1) statuses.push((await login(`not-a-login-token-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const good = await hub.loginToken('acme-owner');
    expectTooMany(await login(good));
    hub.clock.advance(MINUTE_MS);
    expect((await login(good)).status).toBe(303);
  });

  it('count only the links that do not log in', async () => {
    for (let i = 0; i < LIMIT + 2; i += 1) expect((await login(await hub.loginToken('acme-owner'))).status).toBe(303);
  });

  it('are counted before they are looked up: links sent at once look up no more than the limit', async () => {
    await hub.stop();
    const limit = 30;
    hub = await TestHub.start({ config: { authFailureRatePerMinute: limit } });
    const lookups = vi.spyOn(hub.services.sessions, 'redeemLoginLink');
    const answers = await Promise.all(Array.from({ length: 120 }, (_, i) => login(`not-a-login-token-${i}`)));
    const statuses = answers.map((res) => res.status);
    expect(lookups.mock.calls.length).toBeLessThanOrEqual(limit);
    expect(statuses.filter((status) => status === 401)).toHaveLength(lookups.mock.calls.length);
    expect(statuses.filter((status) => status === 429)).toHaveLength(120 - lookups.mock.calls.length);
    expect(lookups.mock.calls.length).toBeGreaterThan(0);
  });

  it('give back the count of a link that logged in, within its minute', async () => {
    for (let i = 0; i < LIMIT - 1; i += 1) await login(`not-a-login-token-${i}`);
    for (let i = 0; i < 3; i += 1) expect((await login(await hub.loginToken('acme-owner'))).status).toBe(303);
    expect((await login('not-a-login-token-last')).status).toBe(401);
    expectTooMany(await login(await hub.loginToken('acme-owner')));
  });

  it('share the count with refused API tokens', async () => {
    for (let i = 0; i < LIMIT; i += 1) await withBearer(BAD_TOKEN);
    expectTooMany(await login('not-a-login-token'));
  });
});

describe('the client address of a limit', () => {
  beforeEach(async () => {
    await hub.stop();
    hub = await TestHub.start({ config: { authFailureRatePerMinute: 1, trustedProxies: ['127.0.0.1'] } });
  });
  const from = (address: string) => withBearer(BAD_TOKEN, { 'x-forwarded-for': address });

  it('is the /64 for IPv6: every address of one /64 shares one budget, the next /64 has its own', async () => {
    expect((await from('2001:db8:1:2::1')).status).toBe(401);
    for (const sibling of ['2001:db8:1:2::2', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:DB8:1:2:0:0:0:9']) {
      expectTooMany(await from(sibling));
    }
    expect((await from('2001:db8:1:3::1')).status).toBe(401);
  });

  it('is the IPv4 address itself, however it is spelled, and a mapped IPv6 address counts as it', async () => {
    expect((await from('198.51.100.7')).status).toBe(401);
    expectTooMany(await from('::ffff:198.51.100.7'));
    expectTooMany(await from('::ffff:c633:6407'));
    expect((await from('198.51.100.8')).status).toBe(401);
    expect((await from('::ffff:198.51.100.9')).status).toBe(401);
    expectTooMany(await from('198.51.100.9'));
  });
});
