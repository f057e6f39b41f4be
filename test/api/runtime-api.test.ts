import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/api-tokens/scopes.js';
import type { OrgCallArgs, OrgOperationId } from '../support/api-client.js';
import { expectError, expectOk, okBody } from '../support/assertions.js';
import { everyRow } from '../support/every-row.js';
import { type CliResult, cliEnv, runHub } from '../support/hub-cli.js';
import { type OrgFixture, seedOrg } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { runNode } from '../support/subprocess.js';
import { runLine, tableRows } from '../support/usage-runs.js';

/**
 * The agent runtime's API over HTTP: runs reported as a JSON array or NDJSON through the ingest
 * `hub usage ingest` runs, with Idempotency-Key; the `runtime` scope of service-account tokens;
 * and connection credentials resolved with a platform runtime credential only.
 */
let hub: TestHub;
let org: OrgFixture;
let projectId: string;
/** A MEMBER service account's token with only the `runtime` scope. */
let runtimeToken: string;
/** Every answer and console output seen: no secret may show in any but the resolve answers. */
const seen: string[] = [];
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

const cli = async (args: string[]): Promise<CliResult> => {
  const result = await runHub(args, cliEnv(hub.database.dataDir, hub.database.databaseUrl));
  seen.push(result.stderr);
  return result;
};

const bearer = (token: string, headers: Record<string, string> = {}) => ({
  authorization: `Bearer ${token}`,
  ...headers,
});

/** POST /usage/runs with a bearer token; `body` is sent as JSON, or as NDJSON text when a string. */
const postRuns = (token: string, body: unknown, headers: Record<string, string> = {}) =>
  hub.request('POST', `/api/org/${org.slug}/usage/runs`, {
    body,
    headers: bearer(token, typeof body === 'string' ? { 'content-type': 'application/x-ndjson', ...headers } : headers),
  });

const resolve = (credential: string | undefined, body: unknown, options: { cookie?: string; slug?: string } = {}) =>
  hub.request('POST', `/api/org/${options.slug ?? org.slug}/runtime/credentials`, {
    body,
    cookie: options.cookie,
    headers: credential ? bearer(credential) : {},
  });

const runRows = () => tableRows(hub.services.db, 'runs');
const runCount = async () => (await runRows()).length;

async function serviceAccountToken(role: 'MEMBER' | 'ADMIN', scopes: Scope[]): Promise<string> {
  const account = await okBody(
    org.call('owner', 'createServiceAccount', { body: { name: unique('runtime'), role } }),
    201,
  );
  const created = await okBody(
    org.call('owner', 'createApiToken', { body: { name: unique('t'), scopes, serviceAccountId: account.id } }),
    201,
  );
  return created.token;
}

const withCookie = <O extends OrgOperationId>(operationId: O, ...input: OrgCallArgs<O>) =>
  org.call('owner', operationId, ...input);

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'rt');
  projectId = (await okBody(withCookie('createProject', { body: { name: 'Runtime project' } }))).id;
  runtimeToken = await serviceAccountToken('MEMBER', ['runtime']);
});
afterAll(() => hub.stop());

describe('reporting runs over HTTP', () => {
  it('stores a JSON array of runs in one go, as the ingest does', async () => {
    const before = await runCount();
    const runs = [
      runLine(projectId, 'json-s1', '2026-11-20T10:00:00Z'),
      runLine(projectId, 'json-s1', '2026-11-20T10:05:00Z'),
      runLine(projectId, 'json-s2', '2026-11-20T11:00:00Z', { title: 'Second' }),
    ];
    const res = await postRuns(runtimeToken, runs);
    expectOk(res);
    expect(res.body).toEqual({ runs: 3, sessions: 2 });
    expect(await runCount()).toBe(before + 3);
    const sessions = await hub.services.db('agent_sessions').whereIn('id', ['json-s1', 'json-s2']).select('id');
    expect(sessions).toHaveLength(2);
  });

  it('stores NDJSON, blank lines skipped', async () => {
    const before = await runCount();
    const text = [
      JSON.stringify(runLine(projectId, 'nd-s1', '2026-11-21T10:00:00Z')),
      '',
      JSON.stringify(runLine(projectId, 'nd-s1', '2026-11-21T10:01:00Z')),
      '',
    ].join('\r\n');
    const res = await postRuns(runtimeToken, text);
    expectOk(res);
    expect(res.body).toEqual({ runs: 2, sessions: 1 });
    expect(await runCount()).toBe(before + 2);
  });

  it('names the line of a bad run and writes nothing of the batch, in either form', async () => {
    const good = JSON.stringify(runLine(projectId, 'bad-s1', '2026-11-22T10:00:00Z'));
    const cases: Array<[unknown, RegExp]> = [
      [[runLine(projectId, 'bad-s1', '2026-11-22T10:00:00Z'), { projectId }], /^line 2: /],
      [
        [
          runLine(projectId, 'bad-s1', '2026-11-22T10:00:00Z'),
          runLine(projectId, 'bad-s1', '2026-11-22T10:00:00Z'),
          runLine(projectId, 'bad-s1', '2026-11-22T10:00:00Z', { inputTokens: -1 }),
        ],
        /^line 3: inputTokens/,
      ],
      [`${good}\n${good}\nnot json\n`, /^line 3: not valid JSON/],
      [`${good}\n\n${JSON.stringify(runLine('no-such-project', 'x', '2026-11-22T10:00:00Z'))}\n`, /^line 3: /],
      // Text no database can store, escaped in a line's JSON (a JSON body's is refused with 400 before).
      [
        `${JSON.stringify(runLine(projectId, 'bad-s1', '2026-11-22T10:00:00Z', { title: 'a\u0000b' }))}\n`,
        /^line 1: title must not/,
      ],
    ];
    const before = await everyRow(hub);
    for (const [body, message] of cases) {
      const res = await postRuns(runtimeToken, body);
      expect(expectError(res, 422, 'invalid_usage_run').error.message).toMatch(message);
    }
    expect(await everyRow(hub)).toEqual(before);
  });

  it('refuses a body that is neither an array nor NDJSON', async () => {
    for (const [body, type, status] of [
      ['{"projectId": "x"}', 'application/json', 400],
      ['"text"', 'application/json', 400],
      ['[]', 'application/json', 400],
      ['[1, 2]', 'application/json', 400],
      ['a,b', 'text/csv', 415],
    ] as const) {
      const res = await hub.request('POST', `/api/org/${org.slug}/usage/runs`, {
        body,
        headers: bearer(runtimeToken, { 'content-type': type }),
      });
      expect(res.status, res.text).toBe(status);
    }
  });

  it('holds the batch to the organization’s requestBodySize', async () => {
    await okBody(withCookie('updateCapacityPolicy', { body: { limits: { requestBodySize: 65_536 } } }));
    try {
      const line = JSON.stringify(runLine(projectId, 'big', '2026-11-22T10:00:00Z'));
      const text = `${line}\n`.repeat(Math.ceil(70_000 / line.length));
      expectError(await postRuns(runtimeToken, text), 413, 'payload_too_large');
    } finally {
      await okBody(withCookie('updateCapacityPolicy', { body: { limits: { requestBodySize: null } } }));
    }
  });

  describe('Idempotency-Key', () => {
    it('answers a retried batch from what was stored, storing it once', async () => {
      const key = unique('batch');
      const runs = [
        runLine(projectId, 'idem-s1', '2026-11-23T10:00:00Z'),
        runLine(projectId, 'idem-s2', '2026-11-23T10:00:00Z'),
      ];
      const before = await runCount();
      const first = await postRuns(runtimeToken, runs, { 'idempotency-key': key });
      expectOk(first);
      expect(first.body).toEqual({ runs: 2, sessions: 2 });
      const rows = await runRows();
      const again = await postRuns(runtimeToken, runs, { 'idempotency-key': key });
      expectOk(again);
      expect(again.body).toEqual(first.body);
      expect(await runRows()).toEqual(rows);
      expect(rows).toHaveLength(before + 2);
      // The same runs under no key, or another key, are another batch.
      expectOk(await postRuns(runtimeToken, runs, { 'idempotency-key': unique('batch') }));
      expect(await runCount()).toBe(before + 4);
    });

    it('stores a batch sent twice at once under one key once, answering both the same', async () => {
      const key = unique('batch');
      const runs = [runLine(projectId, 'twice-s1', '2026-11-23T10:30:00Z')];
      const before = await runCount();
      const answers = await Promise.all([0, 1, 2].map(() => postRuns(runtimeToken, runs, { 'idempotency-key': key })));
      for (const res of answers) {
        expectOk(res);
        expect(res.body).toEqual({ runs: 1, sessions: 1 });
      }
      expect(await runCount()).toBe(before + 1);
    });

    it('refuses the key with another body (422), writing nothing', async () => {
      const key = unique('batch');
      const text = `${JSON.stringify(runLine(projectId, 'reuse-s1', '2026-11-23T11:00:00Z'))}\n`;
      expectOk(await postRuns(runtimeToken, text, { 'idempotency-key': key }));
      const before = await everyRow(hub);
      const other = `${JSON.stringify(runLine(projectId, 'reuse-s1', '2026-11-23T11:30:00Z'))}\n`;
      const res = await postRuns(runtimeToken, other, { 'idempotency-key': key });
      expect(expectError(res, 422, 'idempotency_key_reused').error.message).toContain(key);
      expect(await everyRow(hub)).toEqual(before);
    });

    it('keeps no key of a refused batch, and forgets a key after 24 hours', async () => {
      const key = unique('batch');
      const bad = [runLine(projectId, 'late-s1', '2026-11-23T12:00:00Z', { costUsd: -1 })];
      expectError(await postRuns(runtimeToken, bad, { 'idempotency-key': key }), 422, 'invalid_usage_run');
      const runs = [runLine(projectId, 'late-s1', '2026-11-23T12:00:00Z')];
      expectOk(await postRuns(runtimeToken, runs, { 'idempotency-key': key }));
      const before = await runCount();
      hub.clock.advance(24 * 60 * 60 * 1000 + 1000);
      const later = await postRuns(runtimeToken, runs, { 'idempotency-key': key });
      expectOk(later);
      expect(await runCount()).toBe(before + 1);
      const keys = await hub.services.db('usage_idempotency_keys').where({ idempotency_key: key });
      expect(keys).toHaveLength(1);
    });

    it('is one organization’s: another organization’s same key is its own', async () => {
      const other = await seedOrg(hub, 'rt-other');
      const otherProject = (await okBody(other.call('owner', 'createProject', { body: { name: 'Theirs' } }))).id;
      const key = unique('shared');
      expectOk(
        await postRuns(runtimeToken, [runLine(projectId, 'own-s', '2026-11-24T10:00:00Z')], { 'idempotency-key': key }),
      );
      const theirs = await hub.request('POST', `/api/org/${other.slug}/usage/runs`, {
        cookie: other.cookies.owner,
        headers: { 'idempotency-key': key },
        body: [runLine(otherProject, 'their-s', '2026-11-24T10:00:00Z')],
      });
      expectOk(theirs);
      expect(theirs.body).toEqual({ runs: 1, sessions: 1 });
    });
  });

  it('is refused without the runtime scope or admin rights; the runtime scope admits nothing else', async () => {
    const runs = [runLine(projectId, 'scope-s', '2026-11-25T10:00:00Z')];
    const memberUsageWrite = await serviceAccountToken('MEMBER', ['usage:write']);
    const adminUsageWrite = await serviceAccountToken('ADMIN', ['usage:write']);
    const before = await runCount();
    expectError(await postRuns(memberUsageWrite, runs), 403, 'org_admin_required');
    expectError(
      await hub.request('POST', `/api/org/${org.slug}/usage/runs`, { cookie: org.cookies.member, body: runs }),
      403,
      'org_admin_required',
    );
    expect(await runCount()).toBe(before);
    expectOk(await postRuns(adminUsageWrite, runs));
    expectOk(await hub.request('POST', `/api/org/${org.slug}/usage/runs`, { cookie: org.cookies.admin, body: runs }));
    // The runtime scope is no area's read or write.
    for (const path of ['/usage', '/members', '']) {
      const res = await hub.request('GET', `/api/org/${org.slug}${path}`, { headers: bearer(runtimeToken) });
      expectError(res, 403, 'token_scope_required');
    }
  });

  it('records the batch in the audit log as the service account’s', async () => {
    expectOk(await postRuns(runtimeToken, [runLine(projectId, 'audit-s', '2026-11-25T11:00:00Z')]));
    const events = await okBody(withCookie('listAuditEvents', { query: { action: 'ingestUsageRuns' } }));
    expect(events.events[0]).toMatchObject({ action: 'ingestUsageRuns', actor: { type: 'serviceAccount' } });
  });
});

describe('platform runtime credentials', () => {
  let credential: string;
  let providerId: string;

  beforeAll(async () => {
    const created = await cli(['runtime-credential', 'create', 'runtime-1']);
    expect(created.code, created.stderr).toBe(0);
    credential = created.stdout.trim();
    providerId = unique('prov');
    await okBody(
      withCookie('rotateProviderConnection', {
        path: { providerId },
        body: { baseUrl: 'https://api.example.com', authToken: 'sk-runtime-secret' },
      }),
    );
  });

  it('are made on the console: shown once, stored hashed, listed, in the host log without the secret', async () => {
    expect(credential).toMatch(/^hubr_[0-9A-Za-z]{43}$/);
    const rows = await everyRow(hub);
    expect(rows).not.toContain(credential);
    const listed = await cli(['runtime-credential', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`\\t${credential.slice(0, 12)}…\\t.*\\tlive\\truntime-1\\n`));
    expect(listed.stdout).not.toContain(credential);
    const events = await hub.services.db('host_audit_events').where({ action: 'runtimeCredential.create' });
    expect(events).toMatchObject([
      { actor_type: 'console', target_type: 'runtimeCredential', target_label: 'runtime-1' },
    ]);
    expect(JSON.stringify(events)).not.toContain(credential);
    const taken = await cli(['runtime-credential', 'create', 'runtime-1']);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toMatch(/a live runtime credential is named "runtime-1"/);
  });

  it('resolve the active version of a provider, a capability and the chat application', async () => {
    const provider = await resolve(credential, { providerId });
    expectOk(provider);
    expect(provider.body).toEqual({
      kind: 'provider',
      connectionId: expect.any(String),
      version: 1,
      provider: { providerId, mode: 'BYOK', baseUrl: 'https://api.example.com', authToken: 'sk-runtime-secret' },
    });
    const capabilityId = unique('cap');
    await okBody(
      withCookie('putCapabilityConnection', {
        path: { capabilityId },
        body: {
          label: 'Search',
          kind: 'http',
          endpointUrl: 'https://search.example.com',
          headers: { authorization: 'Bearer cap-secret' },
        },
      }),
    );
    const capability = await resolve(credential, { capabilityId });
    expectOk(capability);
    expect(capability.body).toMatchObject({
      kind: 'capability',
      capability: {
        capabilityId,
        endpointUrl: 'https://search.example.com',
        headers: { authorization: 'Bearer cap-secret' },
      },
    });
    await okBody(
      withCookie('putChatApplicationConnection', {
        body: { appId: 'cli_a1b2c3d4e5f6g7h8', appSecret: 'app-secret', botOpenId: 'ou_bot' },
      }),
    );
    const chat = await resolve(credential, { chatApplication: true });
    expectOk(chat);
    expect(chat.body).toMatchObject({ kind: 'chatApplication', chatApplication: { appSecret: 'app-secret' } });
  });

  it('refuse what the in-process resolver refuses: none (404), DISABLED and never sealed (409)', async () => {
    expectError(await resolve(credential, { providerId: 'no-such' }), 404, 'connection_not_found');
    const disabled = unique('prov');
    await okBody(
      withCookie('rotateProviderConnection', {
        path: { providerId: disabled },
        body: { baseUrl: 'https://api.example.com', authToken: 'sk-disabled' },
      }),
    );
    await okBody(withCookie('disableProviderConnection', { path: { providerId: disabled } }));
    const inProcess = await hub.services.credentials
      .resolveProviderCredentials(org.id, disabled)
      .catch((e: Error) => e);
    const res = await resolve(credential, { providerId: disabled });
    expect(expectError(res, 409, 'connection_unavailable').error.message).toBe((inProcess as Error).message);
    expect(res.text).not.toContain('sk-disabled');
    expectError(await resolve(credential, { providerId }, { slug: 'no-such-org' }), 404, 'org_not_found');
    for (const body of [{}, { providerId, capabilityId: 'x' }, { chatApplication: false }]) {
      expectError(await resolve(credential, body), 400, 'validation_failed');
    }
  });

  it('are the only way in: sessions and organization tokens get 403, nothing at all 401', async () => {
    const ownerToken = await okBody(
      withCookie('createApiToken', { body: { name: unique('t'), scopes: ['connections:write'] } }),
      201,
    );
    const adminAccount = await serviceAccountToken('ADMIN', ['connections:write']);
    for (const res of [
      await resolve(undefined, { providerId }, { cookie: org.cookies.owner }),
      await resolve(ownerToken.token, { providerId }),
      await resolve(adminAccount, { providerId }),
      await resolve(runtimeToken, { providerId }),
    ]) {
      expectError(res, 403, 'runtime_credential_required');
      expect(res.text).not.toContain('sk-runtime-secret');
    }
    expectError(await resolve(undefined, { providerId }), 401, 'unauthenticated');
    expectError(await resolve(`hubr_${'x'.repeat(43)}`, { providerId }), 401, 'token_invalid');
    // A platform credential opens no organization's operations either.
    expectError(
      await hub.request('GET', `/api/org/${org.slug}/provider-connections`, { headers: bearer(credential) }),
      401,
      'token_invalid',
    );
  });

  it('count every resolve on /metrics by kind and outcome', async () => {
    const metric = async (kind: string, outcome: string) => {
      const text = await (await fetch(`${hub.url}/metrics`)).text();
      const line = new RegExp(
        `^hub_runtime_credential_resolves_total\\{kind="${kind}",outcome="${outcome}"\\} (\\d+)$`,
        'm',
      );
      return Number(line.exec(text)?.[1] ?? 0);
    };
    const [resolved, notFound] = [await metric('provider', 'resolved'), await metric('provider', 'not_found')];
    expectOk(await resolve(credential, { providerId }));
    expectOk(await resolve(credential, { providerId }));
    expectError(await resolve(credential, { providerId: 'nope' }), 404, 'connection_not_found');
    expect(await metric('provider', 'resolved')).toBe(resolved + 2);
    expect(await metric('provider', 'not_found')).toBe(notFound + 1);
    expect(await metric('provider', 'disabled')).toBeGreaterThan(0);
  });

  it('stop at once when revoked, recorded in the host log', async () => {
    const made = await cli(['runtime-credential', 'create', 'runtime-2']);
    const second = made.stdout.trim();
    expectOk(await resolve(second, { providerId }));
    const revoked = await cli(['runtime-credential', 'revoke', 'runtime-2']);
    expect(revoked.code, revoked.stderr).toBe(0);
    expectError(await resolve(second, { providerId }), 401, 'token_invalid');
    expectOk(await resolve(credential, { providerId }));
    const again = await cli(['runtime-credential', 'revoke', 'runtime-2']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/no runtime credential "runtime-2"/);
    const listed = await cli(['runtime-credential', 'list']);
    expect(listed.stdout).toMatch(/\trevoked [^\t]+\truntime-2\n/);
    const events = await hub.services.db('host_audit_events').where({ action: 'runtimeCredential.revoke' });
    expect(events).toMatchObject([{ target_label: 'runtime-2' }]);
  });

  it('never leave a secret in the console output or the host log', async () => {
    const log = JSON.stringify(await hub.services.db('host_audit_events').select());
    for (const text of [...seen, log]) {
      expect(text).not.toContain('sk-runtime-secret');
      expect(text).not.toMatch(/hubr_[0-9A-Za-z]{43}/);
    }
  });
});

/**
 * A runtime that is a process of its own (test/support/fake-runtime.mjs), given only the hub's
 * loopback URL, a service account's runtime token and a platform runtime credential: it asks
 * whether a run may start, fetches a provider's credentials, reports its runs, retries the
 * report, and is refused the credentials with its organization token.
 */
describe('a runtime process using only HTTP', () => {
  it('fetches credentials and reports runs, stored once', async () => {
    const credential = (await cli(['runtime-credential', 'create', 'process-runtime'])).stdout.trim();
    const providerId = unique('prov');
    await okBody(
      withCookie('rotateProviderConnection', {
        path: { providerId },
        body: { baseUrl: 'https://api.example.com', authToken: 'sk-process' },
      }),
    );
    const before = await runCount();
    const script = fileURLToPath(new URL('../support/fake-runtime.mjs', import.meta.url));
    // Nothing of this process's environment but PATH: what the runtime knows is what it is given.
    const env = {
      PATH: process.env.PATH,
      HUB_URL: hub.url,
      HUB_ORG: org.slug,
      HUB_TOKEN: runtimeToken,
      HUB_RUNTIME_CREDENTIAL: credential,
      HUB_PROJECT_ID: projectId,
      HUB_PROVIDER_ID: providerId,
      HUB_INITIATOR: `${org.slug}-owner`,
    };
    const result = await runNode(script, [], { env });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const steps = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { step: string; status: number; body: unknown });
    expect(steps.map(({ step, status }) => [step, status])).toEqual([
      ['admission', 200],
      ['fetchProviderCredentials', 200],
      ['reportRuns', 200],
      ['retryReport', 200],
      ['fetchWithOrgToken', 403],
    ]);
    expect(steps[0]!.body).toMatchObject({ decision: 'allow', reasons: [] });
    expect(steps[1]!.body).toMatchObject({ kind: 'provider', provider: { providerId, authToken: 'sk-process' } });
    expect(steps[2]!.body).toEqual({ runs: 2, sessions: 1 });
    expect(steps[3]!.body).toEqual(steps[2]!.body);
    expect(await runCount()).toBe(before + 2);
  });
});
