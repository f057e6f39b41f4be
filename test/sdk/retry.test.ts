// Retry of 429 answers with Retry-After: how long the client waits, how often, when it gives
// up at once, that a body is sent again intact, and that an abort ends the wait. Time is the
// test's: the client's `retry.sleep` records each wait instead of waiting (but in the abort
// test, which uses the real timer).
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { OrgAdminClientOptions } from '../../sdk/src/client.js';
import { ApiError } from '../../sdk/src/errors.js';
import { retryAfterMs } from '../../sdk/src/retry.js';
import { createOrgAdminClient } from './support/client.js';
import { BASE, recordRequests, useMockServer } from './support/msw.js';

const server = useMockServer();

const rateLimited = (retryAfter?: string) =>
  HttpResponse.json(
    { error: { code: 'rate_limited', message: 'Too many requests.' } },
    { status: 429, headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter } },
  );

/** Answers the listed responses in turn, then 200 `{}`; records the requests. */
function answers(...responses: Array<() => Response>) {
  let n = 0;
  return recordRequests(server, () => (responses[n++] ?? (() => HttpResponse.json({})))());
}

/** A client whose waits are recorded (in ms) and return at once. */
function clientWithClock(retry: Omit<NonNullable<Exclude<OrgAdminClientOptions['retry'], boolean>>, 'sleep'> = {}) {
  const waits: number[] = [];
  const client = createOrgAdminClient({
    baseUrl: BASE,
    orgSlug: 'acme',
    retry: {
      ...retry,
      sleep: async (ms) => {
        waits.push(ms);
      },
    },
  });
  return { client, waits };
}

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => expect.fail('expected the call to reject'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('retry of 429 with Retry-After', () => {
  it('waits the seconds Retry-After names, then sends the request again', async () => {
    const requests = answers(() => rateLimited('3'));
    const { client, waits } = clientWithClock();
    await expect(client.getOrgSettings()).resolves.toEqual({});
    expect([requests.length, waits]).toEqual([2, [3000]]);
  });

  it('waits until the HTTP date Retry-After names', async () => {
    const at = new Date(Date.now() + 10_000).toUTCString();
    const requests = answers(() => rateLimited(at));
    const { client, waits } = clientWithClock();
    await client.getOrgSettings();
    expect(requests).toHaveLength(2);
    // The date has whole seconds, and some time passed since it was made.
    expect(waits[0]).toBeGreaterThan(8_000);
    expect(waits[0]).toBeLessThanOrEqual(10_000);
  });

  it('retries twice by default, then throws the 429', async () => {
    const requests = answers(
      () => rateLimited('1'),
      () => rateLimited('2'),
      () => rateLimited('1'),
      () => rateLimited('1'),
    );
    const { client, waits } = clientWithClock();
    const error = await apiError(client.listTeams());
    expect([error.status, error.code, error.headers.get('retry-after')]).toEqual([429, 'rate_limited', '1']);
    expect([requests.length, waits]).toEqual([3, [1000, 2000]]);
  });

  it('retries as often as maxRetries says', async () => {
    const requests = answers(...Array(4).fill(() => rateLimited('0')));
    const { client, waits } = clientWithClock({ maxRetries: 4 });
    await expect(client.listTeams()).resolves.toEqual({});
    expect([requests.length, waits]).toEqual([5, [0, 0, 0, 0]]);
  });

  it('does not wait longer than the cap (30 s by default): it throws the 429 at once', async () => {
    const requests = answers(() => rateLimited('31'));
    const { client, waits } = clientWithClock();
    const error = await apiError(client.getMe());
    expect([error.status, requests.length, waits]).toEqual([429, 1, []]);

    const far = answers(() => rateLimited(new Date(Date.now() + 3_600_000).toUTCString()));
    await apiError(clientWithClock().client.getMe());
    expect(far).toHaveLength(1);

    const atCap = answers(() => rateLimited('30'));
    const defaults = clientWithClock();
    await defaults.client.getMe();
    expect([atCap.length, defaults.waits]).toEqual([2, [30_000]]);

    const raised = answers(() => rateLimited('31'));
    const patient = clientWithClock({ maxWaitMs: 60_000 });
    await patient.client.getMe();
    expect([raised.length, patient.waits]).toEqual([2, [31_000]]);
  });

  it('does not retry a 429 without a readable Retry-After, or another status', async () => {
    for (const response of [
      () => rateLimited(),
      () => rateLimited('soon'),
      () => rateLimited('1.5'),
      () =>
        HttpResponse.json(
          { error: { code: 'internal_error', message: 'x' } },
          { status: 503, headers: { 'retry-after': '1' } },
        ),
    ]) {
      const requests = answers(response);
      const { client, waits } = clientWithClock();
      await apiError(client.getMe());
      expect([requests.length, waits]).toEqual([1, []]);
    }
  });

  it('is off with retry: false or maxRetries: 0', async () => {
    for (const retry of [false, { maxRetries: 0 }] as const) {
      const requests = answers(() => rateLimited('1'));
      const client = createOrgAdminClient({ baseUrl: BASE, orgSlug: 'acme', retry });
      expect((await apiError(client.getMe())).status).toBe(429);
      expect(requests).toHaveLength(1);
    }
  });

  it('sends a body again, intact, with its headers', async () => {
    const requests = answers(() => rateLimited('1'));
    const client = createOrgAdminClient({
      baseUrl: BASE,
      orgSlug: 'acme',
      token: 'hubt_abc',
      retry: { sleep: async () => {} },
    });
    const body = { imOpenId: 'ou_ü 1', displayName: 'Ada "A" Lovelace', role: 'MEMBER' } as const;
    await client.addMember({ body });
    expect(requests.map((r) => [r.method, r.pathname, r.headers.get('content-type'), r.body])).toEqual(
      Array(2).fill(['POST', '/api/org/acme/members', 'application/json', JSON.stringify(body)]),
    );
    expect(requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer hubt_abc', 'Bearer hubt_abc']);
  });

  it('retries raw requests too', async () => {
    const requests = answers(() => rateLimited('1'));
    const { client, waits } = clientWithClock();
    const { response } = await client.raw.GET('/api/me');
    expect([response.status, requests.length, waits]).toEqual([200, 2, [1000]]);
  });

  it('ends the wait when the call is aborted, with its AbortError', async () => {
    const requests = answers(() => rateLimited('20'));
    const client = createOrgAdminClient({ baseUrl: BASE, orgSlug: 'acme' });
    const controller = new AbortController();
    const started = Date.now();
    const pending = client.getMe(undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    // Well before the 20 s the server asked to wait: the abort ended the wait, not the clock.
    expect(Date.now() - started).toBeLessThan(19_000);
    expect(requests).toHaveLength(1);
  });

  it('refuses retry options it cannot use', () => {
    const create = (retry: unknown) =>
      createOrgAdminClient({ baseUrl: BASE, orgSlug: 'acme', retry: retry as OrgAdminClientOptions['retry'] });
    for (const retry of [
      'yes',
      null,
      { maxRetries: -1 },
      { maxRetries: 1.5 },
      { maxWaitMs: Number.NaN },
      { sleep: 1 },
    ]) {
      expect(() => create(retry), JSON.stringify(retry)).toThrow(TypeError);
    }
    for (const retry of [undefined, true, false, {}, { maxRetries: 0, maxWaitMs: 0 }])
      expect(() => create(retry)).not.toThrow();
  });
});

describe('Retry-After values', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');
  it('reads delay-seconds and HTTP dates; a past date means now; anything else is unreadable', () => {
    expect(
      [
        '0',
        ' 7 ',
        'Sun, 22 Nov 2026 10:00:05 GMT',
        'Sunday, 22-Nov-26 10:00:09 GMT',
        'Sun, 22 Nov 2026 09:00:00 GMT',
      ].map((value) => retryAfterMs(value, now)),
    ).toEqual([0, 7000, 5000, 9000, 0]);
    for (const value of [null, '', '-1', '1.5', '1e3', 'soon', 'Sun, 22 Nov 2026 10:00:05', '2026-11-22T10:00:05Z']) {
      expect(retryAfterMs(value, now), String(value)).toBeUndefined();
    }
  });
});
