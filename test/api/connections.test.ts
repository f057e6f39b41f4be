import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../src/app/services.js';
import { ConnectionUnavailableError, CredentialResolver } from '../../src/connections/resolver.js';
import { ConnectionStore } from '../../src/connections/store.js';
import { loadConfig } from '../../src/config/config.js';
import { UnitOfWork } from '../../src/db/unit-of-work.js';
import { MissingKeyError, TamperedEnvelopeError, UnknownKeyIdError } from '../../src/crypto/errors.js';
import { fixedKeyring, Keyring, KEY_FILE_NAME, loadKeyring } from '../../src/crypto/keyring.js';
import { errorBody, expectError, okBody } from '../support/assertions.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { cliEnv, HUB_BIN, runHub, type CliResult } from '../support/hub-cli.js';
import { seedOrg, type OrgActor, type OrgFixture } from '../support/org-fixture.js';
import type { ApiResult, OrgCallArgs, OrgOperationId } from '../support/api-client.js';
import { TestHub, type HttpResult } from '../support/test-hub.js';
import { waitForOutput } from '../support/subprocess.js';
import { everyRow } from '../support/every-row.js';

let hub: TestHub;
/** Every response body and every CLI output of this file, for the leak scan. */
const seen: string[] = [];

beforeAll(async () => {
  hub = await TestHub.start();
});
afterAll(() => hub.stop());

const db = () => hub.services.db;

async function api(
  org: OrgFixture,
  actor: OrgActor,
  method: string,
  path: string,
  body?: unknown,
): Promise<HttpResult> {
  const res = await org.api(actor, method, path, body);
  seen.push(res.text);
  return res;
}

/** A typed call of one of the organization's operations; its response joins the leak scan. */
async function call<O extends OrgOperationId>(
  org: OrgFixture,
  actor: OrgActor,
  operationId: O,
  ...input: OrgCallArgs<O>
): Promise<ApiResult<O>> {
  const res = await org.call(actor, operationId, ...input);
  seen.push(res.text);
  return res;
}

async function cli(args: string[], extraEnv: Record<string, string> = {}, input?: string): Promise<CliResult> {
  const result = await runHub(args, cliEnv(hub.database.dataDir, hub.database.databaseUrl, extraEnv), input);
  seen.push(result.stdout, result.stderr);
  return result;
}

function expectUsageError(result: CliResult, pattern: RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
  expect(result.stdout).toBe('');
}

/** Every row of the connection tables; a refused call must leave it as it was. */
async function snapshot(): Promise<string> {
  const tables: Array<[string, string[]]> = [
    ['provider_connections', ['id']],
    ['provider_connection_versions', ['connection_id', 'version']],
    ['chat_application_connections', ['id']],
    ['chat_application_connection_versions', ['connection_id', 'version']],
  ];
  const parts: unknown[] = [];
  for (const [table, order] of tables) parts.push(await db()(table).select().orderBy(order));
  return JSON.stringify(parts);
}

const canary = (label: string) => `CANARY-${label}-${randomBytes(9).toString('hex')}`;
const byokBody = (authToken = 'sk-test-token', baseUrl = 'https://api.example.com') => ({ baseUrl, authToken });
const chatBody = (appId = 'cli_a1b2c3d4e5f6g7h8') => ({ appId, appSecret: 'app-secret', botOpenId: 'ou_bot' });

async function versionRow(table: string, connectionId: string, version: number) {
  return db()(table).where({ connection_id: connectionId, version }).first();
}

describe('provider connections (BYOK)', () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await seedOrg(hub, 'prov');
  });

  it('creates the connection on the first PUT: BYOK, ACTIVE, version 1, no secret in the row', async () => {
    expect(await okBody(call(org, 'admin', 'listProviderConnections'), 200)).toEqual({ connections: [] });
    const row = await okBody(
      call(org, 'admin', 'rotateProviderConnection', {
        path: { providerId: 'anthropic' },
        body: { ...byokBody('sk-first'), vendorApiKey: 'vk-first' },
      }),
      200,
    );
    const at = hub.clock.now().toISOString();
    expect(row).toEqual({
      id: expect.any(String),
      providerId: 'anthropic',
      mode: 'BYOK',
      status: 'ACTIVE',
      activeVersion: 1,
      keyId: expect.stringMatching(/^local-[0-9a-f]{8}$/),
      createdAt: at,
      updatedAt: at,
    });
    expect(await okBody(call(org, 'owner', 'listProviderConnections'), 200)).toEqual({ connections: [row] });
    const resolved = await hub.services.credentials.resolveProviderCredentials(org.id, 'anthropic');
    expect(resolved).toEqual({
      baseUrl: 'https://api.example.com',
      authToken: 'sk-first',
      vendorApiKey: 'vk-first',
      connectionId: row.id,
      providerId: 'anthropic',
      mode: 'BYOK',
      version: 1,
      keyId: row.keyId,
    });
  });

  it('rotates on the next PUT: a new active version, the old one kept, createdAt unchanged', async () => {
    const before = (await okBody(call(org, 'admin', 'listProviderConnections'), 200)).connections[0];
    hub.clock.advance(60_000);
    const row = await okBody(
      call(org, 'owner', 'rotateProviderConnection', {
        path: { providerId: 'anthropic' },
        body: byokBody('sk-second', 'https://proxy.example.com/v1'),
      }),
      200,
    );
    expect(row).toEqual({ ...before, activeVersion: 2, updatedAt: hub.clock.now().toISOString() });
    const resolved = await hub.services.credentials.resolveProviderCredentials(org.id, 'anthropic');
    expect(resolved).toMatchObject({ baseUrl: 'https://proxy.example.com/v1', authToken: 'sk-second', version: 2 });
    expect(resolved).not.toHaveProperty('vendorApiKey');
    expect(
      await db()('provider_connection_versions').where({ connection_id: row.id }).orderBy('version').pluck('version'),
    ).toEqual([1, 2]);
  });

  it('lists connections by providerId, each keyed by (organization, providerId)', async () => {
    await okBody(
      call(org, 'admin', 'rotateProviderConnection', { path: { providerId: 'openai' }, body: byokBody() }),
      200,
    );
    await okBody(
      call(org, 'admin', 'rotateProviderConnection', { path: { providerId: 'Azure.east-1' }, body: byokBody() }),
      200,
    );
    const list = await okBody(call(org, 'admin', 'listProviderConnections'), 200);
    expect(list.connections.map((c) => [c.providerId, c.activeVersion])).toEqual([
      ['Azure.east-1', 1],
      ['anthropic', 2],
      ['openai', 1],
    ]);
  });

  it('takes https base URLs, and http only for loopback hosts', async () => {
    for (const baseUrl of [
      'https://api.example.com:8443/v1',
      'http://localhost:11434',
      'http://127.0.0.1:8080/v1',
      'http://127.9.8.7',
      'http://[::1]:9000/',
    ]) {
      expect(
        (
          await call(org, 'admin', 'rotateProviderConnection', {
            path: { providerId: 'local' },
            body: byokBody('t', baseUrl),
          })
        ).status,
        baseUrl,
      ).toBe(200);
    }
  });

  it('refuses any other base URL with 400 validation_failed naming baseUrl, writing nothing', async () => {
    const before = await snapshot();
    for (const baseUrl of [
      'http://api.example.com',
      'http://127.0.0.1.example.com',
      'http://10.0.0.1:8080',
      'http://[::2]/',
      'ftp://files.example.com',
      'https://user:pass@api.example.com',
      'api.example.com',
    ]) {
      const res = await call(org, 'admin', 'rotateProviderConnection', {
        path: { providerId: 'remote' },
        body: byokBody('t', baseUrl),
      });
      expectError(res, 400, 'validation_failed');
      expect(JSON.stringify(errorBody(res).error), baseUrl).toContain('baseUrl');
    }
    const res = await call(org, 'admin', 'rotateProviderConnection', {
      path: { providerId: 'remote' },
      body: byokBody('t', 'http://api.example.com'),
    });
    expect(errorBody(res).error.details).toEqual([
      { path: '/body/baseUrl', message: expect.stringContaining('https') },
    ]);
    expect(await snapshot()).toBe(before);
  });

  it('refuses a malformed body or providerId before anything is sealed', async () => {
    const before = await snapshot();
    for (const body of [
      { baseUrl: 'https://a.example.com' },
      { authToken: 't' },
      { ...byokBody(), authToken: '' },
      { ...byokBody(), extra: 1 },
    ]) {
      expectError(await api(org, 'admin', 'PUT', '/provider-connections/p', body), 400, 'validation_failed');
    }
    expectError(
      await call(org, 'admin', 'rotateProviderConnection', { path: { providerId: '-bad' }, body: byokBody() }),
      400,
      'validation_failed',
    );
    expect(await snapshot()).toBe(before);
  });
});

describe('the chat-application connection', () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await seedOrg(hub, 'chat');
  });

  it('is null before the first PUT, and DELETE then answers connection_not_found', async () => {
    expect(await okBody(call(org, 'admin', 'getChatApplicationConnection'), 200)).toEqual({ connection: null });
    expectError(await call(org, 'admin', 'disableChatApplicationConnection'), 404, 'connection_not_found');
    await expect(hub.services.credentials.resolveChatApplicationCredentials(org.id)).rejects.toMatchObject({
      code: 'connection_unavailable',
      reason: 'not_found',
    });
  });

  it('is created, rotated, disabled and re-activated by PUT, keeping every version', async () => {
    const created = await okBody(
      call(org, 'admin', 'putChatApplicationConnection', {
        body: { ...chatBody(), verificationToken: 'vt-1', encryptKey: 'ek-1' },
      }),
      200,
    );
    const at = hub.clock.now().toISOString();
    expect(created).toEqual({
      id: expect.any(String),
      appFingerprint: 'cli_a1…g7h8',
      status: 'ACTIVE',
      activeVersion: 1,
      keyId: expect.stringMatching(/^local-/),
      createdAt: at,
      updatedAt: at,
    });
    expect(await okBody(call(org, 'owner', 'getChatApplicationConnection'), 200)).toEqual({ connection: created });
    expect(await hub.services.credentials.resolveChatApplicationCredentials(org.id)).toEqual({
      appId: 'cli_a1b2c3d4e5f6g7h8',
      appSecret: 'app-secret',
      botOpenId: 'ou_bot',
      verificationToken: 'vt-1',
      encryptKey: 'ek-1',
      connectionId: created.id,
      version: 1,
      keyId: created.keyId,
    });

    hub.clock.advance(1_000);
    const rotated = await okBody(
      call(org, 'admin', 'putChatApplicationConnection', {
        body: { ...chatBody('cli_9999888877776666'), appSecret: 's2' },
      }),
      200,
    );
    expect(rotated).toEqual({
      ...created,
      appFingerprint: 'cli_99…6666',
      activeVersion: 2,
      updatedAt: hub.clock.now().toISOString(),
    });

    hub.clock.advance(1_000);
    const disabled = await okBody(call(org, 'owner', 'disableChatApplicationConnection'), 200);
    expect(disabled).toEqual({ ...rotated, status: 'DISABLED', updatedAt: hub.clock.now().toISOString() });
    expect(await okBody(call(org, 'admin', 'getChatApplicationConnection'), 200)).toEqual({ connection: disabled });
    const resolving = hub.services.credentials.resolveChatApplicationCredentials(org.id);
    await expect(resolving).rejects.toBeInstanceOf(ConnectionUnavailableError);
    await expect(resolving).rejects.toMatchObject({ reason: 'disabled' });

    hub.clock.advance(1_000);
    expect(await okBody(call(org, 'admin', 'disableChatApplicationConnection'), 200)).toEqual(disabled);

    const reactivated = await okBody(call(org, 'admin', 'putChatApplicationConnection', { body: chatBody() }), 200);
    expect(reactivated).toMatchObject({
      id: created.id,
      status: 'ACTIVE',
      activeVersion: 3,
      updatedAt: hub.clock.now().toISOString(),
    });
    const resolved = await hub.services.credentials.resolveChatApplicationCredentials(org.id);
    expect(resolved).toMatchObject({ version: 3, appSecret: 'app-secret' });
    expect(resolved).not.toHaveProperty('verificationToken');
    expect(
      await db()('chat_application_connection_versions')
        .where({ connection_id: created.id })
        .orderBy('version')
        .pluck('version'),
    ).toEqual([1, 2, 3]);
  });

  it('fingerprints the app id as its first 6 characters, U+2026, and its last 4', async () => {
    for (const [appId, fingerprint] of [
      ['cli_a1b2c3d4e5f6g7h8', 'cli_a1\u2026g7h8'],
      ['abcdefghij', 'abcdef\u2026ghij'],
      ['短い識別子です長い番号', '短い識別子で\u2026長い番号'],
    ] as const) {
      const row = await okBody(call(org, 'admin', 'putChatApplicationConnection', { body: chatBody(appId) }), 200);
      expect(row.appFingerprint).toBe(fingerprint);
      expect([...row.appFingerprint].length).toBe(11);
    }
  });
});

describe('PLATFORM_MANAGED connections (hub connection platform)', () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await seedOrg(hub, 'plat');
  });

  it('creates one from HUB_PROVIDER_AUTH_TOKEN and prints a one-line summary without secrets', async () => {
    const result = await cli(
      ['connection', 'platform', 'plat', 'anthropic', '--base-url', 'https://api.anthropic.com'],
      {
        HUB_PROVIDER_AUTH_TOKEN: 'sk-platform-env',
        HUB_PROVIDER_VENDOR_API_KEY: 'vk-platform-env',
      },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^created platform-managed connection anthropic of plat: version 1 active, sealed with key local-[0-9a-f]{8}\n$/,
    );
    const list = await okBody(call(org, 'admin', 'listProviderConnections'), 200);
    expect(list.connections).toEqual([
      expect.objectContaining({
        providerId: 'anthropic',
        mode: 'PLATFORM_MANAGED',
        status: 'ACTIVE',
        activeVersion: 1,
      }),
    ]);
    expect(await hub.services.credentials.resolveProviderCredentials(org.id, 'anthropic')).toMatchObject({
      mode: 'PLATFORM_MANAGED',
      baseUrl: 'https://api.anthropic.com',
      authToken: 'sk-platform-env',
      vendorApiKey: 'vk-platform-env',
    });
  });

  it('refuses every org-side change with 403 platform_managed_connection, changing nothing', async () => {
    const before = await snapshot();
    for (const actor of ['owner', 'admin'] as const) {
      const res = await call(org, actor, 'rotateProviderConnection', {
        path: { providerId: 'anthropic' },
        body: byokBody('sk-org-attempt'),
      });
      expectError(res, 403, 'platform_managed_connection');
    }
    expect(await snapshot()).toBe(before);
    expect((await hub.services.credentials.resolveProviderCredentials(org.id, 'anthropic')).authToken).toBe(
      'sk-platform-env',
    );
  });

  it('rotates from JSON on stdin', async () => {
    const result = await cli(
      ['connection', 'platform', 'plat', 'anthropic', '--base-url', 'https://eu.anthropic.com'],
      {},
      '{"authToken": "sk-platform-stdin"}\n',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^rotated platform-managed connection anthropic of plat: version 2 active/);
    expect(await hub.services.credentials.resolveProviderCredentials(org.id, 'anthropic')).toMatchObject({
      version: 2,
      baseUrl: 'https://eu.anthropic.com',
      authToken: 'sk-platform-stdin',
    });
  });

  it('takes over a BYOK connection, which the organization then may no longer change', async () => {
    await okBody(
      call(org, 'admin', 'rotateProviderConnection', { path: { providerId: 'openai' }, body: byokBody('sk-byok') }),
      200,
    );
    const result = await cli(['connection', 'platform', 'plat', 'openai', '--base-url', 'https://api.openai.com'], {
      HUB_PROVIDER_AUTH_TOKEN: 'sk-taken',
    });
    expect(result.stdout).toMatch(
      /^took over \(was BYOK\) platform-managed connection openai of plat: version 2 active/,
    );
    const row = (await okBody(call(org, 'admin', 'listProviderConnections'), 200)).connections.find(
      (c) => c.providerId === 'openai',
    );
    expect(row).toMatchObject({ mode: 'PLATFORM_MANAGED', activeVersion: 2 });
    expectError(
      await call(org, 'owner', 'rotateProviderConnection', { path: { providerId: 'openai' }, body: byokBody() }),
      403,
      'platform_managed_connection',
    );
  });

  it('is listed by hub help', async () => {
    const help = await cli(['help']);
    expect(help.stdout).toContain('connection platform <org> <providerId> --base-url U');
    expect(help.stdout).toContain('HUB_MASTER_KEYS, HUB_ACTIVE_KEY_ID');
  });

  it('refuses bad input with one line on stderr, exit 2, and writes nothing', async () => {
    const before = await snapshot();
    const base = ['connection', 'platform', 'plat', 'anthropic'];
    const url = ['--base-url', 'https://api.anthropic.com'];
    const token = { HUB_PROVIDER_AUTH_TOKEN: 'sk-never' };
    const argvSecret = canary('argv');
    const stdinSecret = canary('stdin');
    const results = await Promise.all([
      cli([...base, ...url, '--auth-token', argvSecret]),
      cli([...base, ...url, `--token=${argvSecret}`]),
      cli([...base, `--vendor-api-key=${argvSecret}`, ...url], token),
      cli([...base, ...url, `--${argvSecret}`], token),
      cli([...base, ...url, argvSecret], token),
      cli(base, token),
      cli([...base, '--base-url', 'http://api.anthropic.com'], token),
      cli([...base, '--base-url', `https://key:${argvSecret}@api.anthropic.com`], token),
      cli(['connection', 'platform', 'plat', 'bad id!', ...url], token),
      cli([...base, ...url]),
      cli([...base, ...url], {}, `not json ${stdinSecret}`),
      cli([...base, ...url], {}, `{"authToken": ""}`),
      cli([...base, ...url], {}, `{"authToken": "x", "${stdinSecret}": "y"}`),
      cli([...base, ...url], {}, `["${stdinSecret}"]`),
      cli([...base, ...url], { HUB_PROVIDER_VENDOR_API_KEY: 'vk' }),
      cli(['connection', 'platform', 'nope', 'anthropic', ...url], token),
      cli(['connection', 'rotate', 'plat', 'anthropic', ...url], token),
    ]);
    const patterns = [
      /never taken from the command line/,
      /never taken from the command line/,
      /never taken from the command line/,
      /never taken from the command line/,
      /expected 2 argument\(s\)/,
      /--base-url is required/,
      /--base-url must be an https URL \(http only for loopback hosts/,
      /--base-url must not carry a user name or password/,
      /providerId must match/,
      /no credentials given: set HUB_PROVIDER_AUTH_TOKEN/,
      /stdin is not valid JSON/,
      /authToken must be 1 to 4096 characters/,
      /may hold only authToken and vendorApiKey/,
      /stdin must hold a JSON object/,
      /HUB_PROVIDER_VENDOR_API_KEY is set but HUB_PROVIDER_AUTH_TOKEN is not/,
      /no organization "nope"/,
      /expected "connection platform"/,
    ];
    results.forEach((result, i) => {
      expectUsageError(result, patterns[i]!);
    });
    for (const result of results) {
      expect(result.stderr).not.toContain(argvSecret);
      expect(result.stderr).not.toContain(stdinSecret);
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('organizations apart', () => {
  let org: OrgFixture;
  let other: OrgFixture;
  beforeAll(async () => {
    org = await seedOrg(hub, 'authz');
    other = await seedOrg(hub, 'authz-other');
    await okBody(
      call(org, 'owner', 'rotateProviderConnection', { path: { providerId: 'anthropic' }, body: byokBody() }),
    );
    await okBody(call(org, 'owner', 'putChatApplicationConnection', { body: chatBody() }));
  });

  it('keeps organizations apart: one never sees or changes the other’s connections', async () => {
    await okBody(
      call(other, 'owner', 'rotateProviderConnection', {
        path: { providerId: 'anthropic' },
        body: byokBody('sk-other-org'),
      }),
      200,
    );
    await okBody(
      call(other, 'owner', 'rotateProviderConnection', {
        path: { providerId: 'only-other' },
        body: byokBody('sk-other-only'),
      }),
      200,
    );
    await okBody(
      call(other, 'owner', 'putChatApplicationConnection', { body: chatBody('cli_other_org_app_0000') }),
      200,
    );
    const mine = await okBody(call(org, 'owner', 'listProviderConnections'), 200);
    const theirs = await okBody(call(other, 'owner', 'listProviderConnections'), 200);
    expect(mine.connections.map((c) => c.providerId)).toEqual(['anthropic']);
    expect(theirs.connections.map((c) => c.providerId)).toEqual(['anthropic', 'only-other']);
    expect(mine.connections[0]!.id).not.toBe(theirs.connections[0]!.id);
    expect((await okBody(call(org, 'owner', 'getChatApplicationConnection'), 200)).connection!.appFingerprint).toBe(
      'cli_a1…g7h8',
    );
    expect((await okBody(call(other, 'owner', 'getChatApplicationConnection'), 200)).connection!.appFingerprint).toBe(
      'cli_ot…0000',
    );
    expect((await hub.services.credentials.resolveProviderCredentials(org.id, 'anthropic')).authToken).toBe(
      'sk-test-token',
    );
    expect((await hub.services.credentials.resolveProviderCredentials(other.id, 'anthropic')).authToken).toBe(
      'sk-other-org',
    );
    await expect(hub.services.credentials.resolveProviderCredentials(org.id, 'only-other')).rejects.toMatchObject({
      reason: 'not_found',
    });
    // Disabling one organization's chat connection leaves the other's alone.
    await okBody(call(org, 'owner', 'disableChatApplicationConnection'), 200);
    expect((await okBody(call(other, 'owner', 'getChatApplicationConnection'), 200)).connection!.status).toBe('ACTIVE');
  });
});

describe('the resolver fails closed', () => {
  let org: OrgFixture;
  let alpha: string;
  let beta: string;
  beforeAll(async () => {
    org = await seedOrg(hub, 'vault');
    alpha = (
      await okBody(
        call(org, 'owner', 'rotateProviderConnection', { path: { providerId: 'alpha' }, body: byokBody('sk-alpha') }),
        200,
      )
    ).id;
    beta = (
      await okBody(
        call(org, 'owner', 'rotateProviderConnection', { path: { providerId: 'beta' }, body: byokBody('sk-beta') }),
        200,
      )
    ).id;
  });

  it('on an envelope with one byte changed (tamper error), and works again once it is restored', async () => {
    const original = await versionRow('provider_connection_versions', alpha, 1);
    for (const column of ['ciphertext', 'tag', 'wrapped_key', 'wrap_tag', 'iv', 'wrap_iv']) {
      const bytes = Buffer.from(original[column]);
      bytes[0] = bytes[0]! ^ 0x80;
      await db()('provider_connection_versions')
        .where({ connection_id: alpha, version: 1 })
        .update({ [column]: bytes });
      await expect(hub.services.credentials.resolveProviderCredentials(org.id, 'alpha'), column).rejects.toBeInstanceOf(
        TamperedEnvelopeError,
      );
      await db()('provider_connection_versions')
        .where({ connection_id: alpha, version: 1 })
        .update({ [column]: original[column] });
    }
    expect((await hub.services.credentials.resolveProviderCredentials(org.id, 'alpha')).authToken).toBe('sk-alpha');
  });

  it('on an envelope copied onto another connection’s row, or onto another version', async () => {
    const envelope = await db()('provider_connection_versions')
      .where({ connection_id: alpha, version: 1 })
      .first('key_id', 'wrapped_key', 'wrap_iv', 'wrap_tag', 'iv', 'tag', 'ciphertext');
    await db()('provider_connection_versions').where({ connection_id: beta, version: 1 }).update(envelope);
    const copied = hub.services.credentials.resolveProviderCredentials(org.id, 'beta');
    await expect(copied).rejects.toBeInstanceOf(TamperedEnvelopeError);
    await expect(copied).rejects.toMatchObject({ code: 'tampered_envelope' });

    await okBody(
      call(org, 'owner', 'rotateProviderConnection', { path: { providerId: 'alpha' }, body: byokBody('sk-alpha-2') }),
      200,
    );
    await db()('provider_connection_versions').where({ connection_id: alpha, version: 2 }).update(envelope);
    await expect(hub.services.credentials.resolveProviderCredentials(org.id, 'alpha')).rejects.toBeInstanceOf(
      TamperedEnvelopeError,
    );
  });

  it('on a key id the keyring does not hold (its own error, naming the id)', async () => {
    const gamma = (
      await okBody(
        call(org, 'owner', 'rotateProviderConnection', { path: { providerId: 'gamma' }, body: byokBody('sk-gamma') }),
        200,
      )
    ).id;
    const stranger = new CredentialResolver(
      new UnitOfWork(db()),
      new ConnectionStore(),
      fixedKeyring(new Keyring(new Map([['elsewhere', randomBytes(32)]]), 'elsewhere')),
    );
    const foreign = stranger.resolveProviderCredentials(org.id, 'gamma');
    await expect(foreign).rejects.toBeInstanceOf(UnknownKeyIdError);
    await expect(foreign).rejects.toMatchObject({ code: 'unknown_key_id', keyId: expect.stringMatching(/^local-/) });

    await db()('provider_connection_versions')
      .where({ connection_id: gamma, version: 1 })
      .update({ key_id: 'retired-key' });
    await expect(hub.services.credentials.resolveProviderCredentials(org.id, 'gamma')).rejects.toMatchObject({
      code: 'unknown_key_id',
      keyId: 'retired-key',
    });
  });

  it('when no master key is available at all (the key file is gone): missing-key error, nothing written', async () => {
    const emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-nokey-'));
    try {
      const services = servicesWith({ dataDir: emptyDir });
      await expect(services.credentials.resolveProviderCredentials(org.id, 'alpha')).rejects.toBeInstanceOf(
        MissingKeyError,
      );
      const before = await snapshot();
      const rotating = services.connections.rotateProvider(org.id, 'delta', byokBody(), 'organization');
      await expect(rotating).rejects.toBeInstanceOf(MissingKeyError);
      await expect(rotating).rejects.toThrow(
        /master key file .* is missing but the database holds \d+ sealed credential version/,
      );
      expect(await snapshot()).toBe(before);
      expect(fs.readdirSync(emptyDir)).toEqual([]);
    } finally {
      fs.rmSync(emptyDir, { recursive: true, force: true });
    }
  });

  it('on a connection that is absent, DISABLED, or whose active version row is gone', async () => {
    await expect(hub.services.credentials.resolveProviderCredentials(org.id, 'nowhere')).rejects.toMatchObject({
      reason: 'not_found',
    });
    await okBody(call(org, 'owner', 'putChatApplicationConnection', { body: chatBody() }), 200);
    await okBody(call(org, 'owner', 'disableChatApplicationConnection'), 200);
    await expect(hub.services.credentials.resolveChatApplicationCredentials(org.id)).rejects.toMatchObject({
      code: 'connection_unavailable',
      reason: 'disabled',
    });
    await db()('provider_connection_versions').where({ connection_id: beta, version: 1 }).delete();
    await expect(hub.services.credentials.resolveProviderCredentials(org.id, 'beta')).rejects.toBeInstanceOf(
      TamperedEnvelopeError,
    );
  });
});

/** Services on the test hub's database and clock with another keyring or data directory. */
function servicesWith(options: { keyring?: Keyring; dataDir?: string }): Services {
  const { config, clock, logger } = hub.services;
  return createServices({
    config: { ...config, dataDir: options.dataDir ?? config.dataDir },
    db: db(),
    clock,
    logger,
    keyring: options.keyring,
  });
}

describe('master key rotation (HUB_MASTER_KEYS)', () => {
  it('keeps old versions readable under their key while new versions use the new active key', async () => {
    const org = await seedOrg(hub, 'rot');
    const k1 = randomBytes(32).toString('base64');
    const k2 = randomBytes(32).toString('base64');
    const load = (env: Record<string, string>) =>
      loadKeyring({ masterKeys: loadConfig(env).masterKeys, dataDir: hub.database.dataDir, keyUsage: async () => [] });
    const before = servicesWith({ keyring: await load({ HUB_MASTER_KEYS: `k1:${k1}`, HUB_ACTIVE_KEY_ID: 'k1' }) });
    const first = await before.connections.rotateProvider(org.id, 'anthropic', byokBody('sk-under-k1'), 'organization');
    expect(first.connection).toMatchObject({ active_version: 1, key_id: 'k1' });
    await before.connections.putChatApplication(org.id, chatBody());

    const env2 = { HUB_MASTER_KEYS: `k1:${k1},k2:${k2}`, HUB_ACTIVE_KEY_ID: 'k2' };
    const after = servicesWith({ keyring: await load(env2) });
    expect(await after.credentials.resolveProviderCredentials(org.id, 'anthropic')).toMatchObject({
      authToken: 'sk-under-k1',
      keyId: 'k1',
      version: 1,
    });
    expect(await after.credentials.resolveChatApplicationCredentials(org.id)).toMatchObject({ keyId: 'k1' });

    const second = await after.connections.rotateProvider(org.id, 'anthropic', byokBody('sk-under-k2'), 'organization');
    expect(second.connection).toMatchObject({ active_version: 2, key_id: 'k2' });
    expect((await okBody(call(org, 'owner', 'listProviderConnections'), 200)).connections[0]).toMatchObject({
      activeVersion: 2,
      keyId: 'k2',
    });
    expect(await after.credentials.resolveProviderCredentials(org.id, 'anthropic')).toMatchObject({
      authToken: 'sk-under-k2',
      keyId: 'k2',
    });
    expect((await versionRow('provider_connection_versions', first.connection.id, 1)).key_id).toBe('k1');

    // The host console reads the same variables.
    const result = await cli(['connection', 'platform', 'rot', 'openai', '--base-url', 'https://api.openai.com'], {
      ...env2,
      HUB_PROVIDER_AUTH_TOKEN: 'sk-cli-k2',
    });
    expect(result.stdout).toMatch(/version 1 active, sealed with key k2\n$/);
    expect(await after.credentials.resolveProviderCredentials(org.id, 'openai')).toMatchObject({
      authToken: 'sk-cli-k2',
      keyId: 'k2',
    });
    // A keyring without k1 cannot open what k1 sealed, and says which key it lacks.
    const onlyK2 = servicesWith({ keyring: await load({ HUB_MASTER_KEYS: `k2:${k2}`, HUB_ACTIVE_KEY_ID: 'k2' }) });
    await expect(onlyK2.credentials.resolveChatApplicationCredentials(org.id)).rejects.toMatchObject({
      code: 'unknown_key_id',
      keyId: 'k1',
    });
  });
});

describe('secrets never leak', () => {
  it('not into a response, a log line, CLI output or the database files', async () => {
    const org = await seedOrg(hub, 'leak');
    const secrets = {
      authToken: canary('authToken'),
      vendorApiKey: canary('vendorApiKey'),
      appSecret: canary('appSecret'),
      verificationToken: canary('verificationToken'),
      encryptKey: canary('encryptKey'),
      envToken: canary('envToken'),
      envVendorKey: canary('envVendorKey'),
      stdinToken: canary('stdinToken'),
      stdinVendorKey: canary('stdinVendorKey'),
      rejectedToken: canary('rejectedToken'),
      urlPassword: canary('urlPassword'),
    };
    // HTTP, both kinds, created and rotated.
    for (const round of [1, 2]) {
      await okBody(
        call(org, 'owner', 'rotateProviderConnection', {
          path: { providerId: 'anthropic' },
          body: {
            baseUrl: 'https://api.example.com',
            authToken: `${secrets.authToken}-${round}`,
            vendorApiKey: `${secrets.vendorApiKey}-${round}`,
          },
        }),
        200,
      );
      await okBody(
        call(org, 'admin', 'putChatApplicationConnection', {
          body: {
            ...chatBody(),
            appSecret: `${secrets.appSecret}-${round}`,
            verificationToken: `${secrets.verificationToken}-${round}`,
            encryptKey: `${secrets.encryptKey}-${round}`,
          },
        }),
        200,
      );
    }
    // Refused requests carrying secrets.
    expectError(
      await call(org, 'owner', 'rotateProviderConnection', {
        path: { providerId: 'anthropic' },
        body: { baseUrl: 'https://api.example.com', authToken: secrets.rejectedToken.padEnd(5000, 'x') },
      }),
      400,
      'validation_failed',
    );
    expectError(
      await call(org, 'owner', 'rotateProviderConnection', {
        path: { providerId: 'anthropic' },
        body: { baseUrl: `https://user:${secrets.urlPassword}@api.example.com`, authToken: secrets.rejectedToken },
      }),
      400,
      'validation_failed',
    );
    expectError(
      await call(org, 'member', 'rotateProviderConnection', {
        path: { providerId: 'anthropic' },
        body: byokBody(secrets.rejectedToken),
      }),
      403,
      'org_admin_required',
    );
    expectError(
      await api(org, 'owner', 'PUT', '/provider-connections/anthropic', `{"authToken": "${secrets.rejectedToken}"`),
      400,
      'validation_failed',
    );
    // The host console, from the environment and from stdin, logging everything it would.
    const env = await cli(['connection', 'platform', 'leak', 'openai', '--base-url', 'https://api.openai.com'], {
      LOG_LEVEL: 'trace',
      HUB_PROVIDER_AUTH_TOKEN: secrets.envToken,
      HUB_PROVIDER_VENDOR_API_KEY: secrets.envVendorKey,
    });
    expect(env.code, env.stderr).toBe(0);
    expect(env.stderr).toContain('provider connection credentials sealed');
    const stdin = await cli(
      ['connection', 'platform', 'leak', 'openai', '--base-url', 'https://api.openai.com'],
      { LOG_LEVEL: 'trace' },
      JSON.stringify({ authToken: secrets.stdinToken, vendorApiKey: secrets.stdinVendorKey }),
    );
    expect(stdin.code, stdin.stderr).toBe(0);
    for (const request of ['GET /provider-connections', 'GET /imapp-application-connection']) {
      const [method, path] = request.split(' ') as [string, string];
      await okBody(api(org, 'owner', method, path), 200);
    }

    // They were stored, sealed: the resolver gets them back.
    expect((await hub.services.credentials.resolveProviderCredentials(org.id, 'anthropic')).authToken).toBe(
      `${secrets.authToken}-2`,
    );
    expect((await hub.services.credentials.resolveChatApplicationCredentials(org.id)).encryptKey).toBe(
      `${secrets.encryptKey}-2`,
    );
    expect(await hub.services.credentials.resolveProviderCredentials(org.id, 'openai')).toMatchObject({
      authToken: secrets.stdinToken,
      vendorApiKey: secrets.stdinVendorKey,
    });
    expect(hub.logLines.some((line) => line.includes('chat-application connection credentials sealed'))).toBe(true);

    const rows = await everyRow(hub);
    expect(rows).not.toBe('');
    const places: Array<[string, string]> = [
      ['responses and CLI output', seen.join('\n')],
      ['log lines', hub.logLines.join('\n')],
      ['database rows', rows],
    ];
    if (hub.database.engine === 'sqlite') {
      for (const file of ['hub.sqlite', 'hub.sqlite-wal']) {
        const full = path.join(hub.database.dataDir, file);
        if (fs.existsSync(full)) places.push([file, fs.readFileSync(full).toString('latin1')]);
      }
      expect(places.map(([where]) => where)).toContain('hub.sqlite-wal');
    }
    const hits: string[] = [];
    for (const [where, text] of places) {
      for (const [name, value] of Object.entries(secrets)) if (text.includes(value)) hits.push(`${name} in ${where}`);
    }
    expect(hits).toEqual([]);
  });
});

describe('start-up with the key file (hub serve)', () => {
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    database = await createTestDatabase();
    env = cliEnv(database.dataDir, database.databaseUrl, { PORT: '0', LOG_LEVEL: 'info' });
  });
  afterAll(() => database.drop());
  const keyFile = () => path.join(database.dataDir, KEY_FILE_NAME);

  it('creates the key file (mode 0600) on first start and says so in its log', async () => {
    const started = await serveUntilListening(env);
    expect(started.stdout).toContain('created the master key file');
    expect(fs.statSync(keyFile()).mode & 0o777).toBe(0o600);
    const keyId = fs.readFileSync(keyFile(), 'utf8').split(':')[0];
    expect(started.stdout).toContain(keyId);
  });

  it(
    'refuses to start when the key file is missing while sealed credentials exist, ' + 'and never makes a new one',
    async () => {
      // Its own organization: the demo one exists only on the embedded SQLite default.
      const created = await runHub(['org', 'create', 'sealed', '--name', 'Sealed', '--owner', 'sealed-owner'], env);
      expect(created.code, created.stderr).toBe(0);
      const sealed = await runHub(
        ['connection', 'platform', 'sealed', 'anthropic', '--base-url', 'https://api.anthropic.com'],
        { ...env, HUB_PROVIDER_AUTH_TOKEN: 'sk-demo' },
      );
      expect(sealed.code, sealed.stderr).toBe(0);
      const aside = `${keyFile()}.aside`;
      fs.renameSync(keyFile(), aside);
      try {
        const serve = await runHub(['serve'], env);
        expectUsageError(
          serve,
          new RegExp(
            /^hub serve: the master key file .*master\.key is missing /.source +
              /but the database holds 1 sealed credential version\(s\); restore the file/.source,
          ),
        );
        expect(fs.existsSync(keyFile())).toBe(false);
        const rotate = await runHub(
          ['connection', 'platform', 'sealed', 'anthropic', '--base-url', 'https://api.anthropic.com'],
          { ...env, HUB_PROVIDER_AUTH_TOKEN: 'sk-demo-2' },
        );
        expectUsageError(rotate, /master key file .* is missing/);
        expect(fs.existsSync(keyFile())).toBe(false);
      } finally {
        fs.renameSync(aside, keyFile());
      }
      const restarted = await serveUntilListening(env);
      expect(restarted.stdout).not.toContain('created the master key file');
    },
  );

  it('refuses to start on malformed HUB_MASTER_KEYS or an unknown HUB_ACTIVE_KEY_ID, with one line', async () => {
    const key = randomBytes(32).toString('base64');
    const cases: Array<[Record<string, string>, RegExp]> = [
      [
        { HUB_MASTER_KEYS: `k1:${randomBytes(16).toString('base64')}`, HUB_ACTIVE_KEY_ID: 'k1' },
        /^hub serve: HUB_MASTER_KEYS: key "k1" must be 32 bytes in base64/,
      ],
      [
        { HUB_MASTER_KEYS: key, HUB_ACTIVE_KEY_ID: 'k1' },
        /^hub serve: HUB_MASTER_KEYS entry 1 is not of the form id:base64key/,
      ],
      [
        { HUB_MASTER_KEYS: `k1:${key}`, HUB_ACTIVE_KEY_ID: 'k2' },
        /^hub serve: HUB_ACTIVE_KEY_ID names no key of HUB_MASTER_KEYS \(its key ids: k1\)/,
      ],
      [{ HUB_MASTER_KEYS: `k1:${key}` }, /^hub serve: HUB_MASTER_KEYS is set but HUB_ACTIVE_KEY_ID is not/],
    ];
    const results = await Promise.all(cases.map(([extra]) => runHub(['serve'], { ...env, ...extra })));
    results.forEach((result, i) => {
      expectUsageError(result, cases[i]![1]);
      expect(result.stderr).not.toContain(key);
    });
  });
});

/** Runs `hub serve` until it logs that it listens, then stops it; its stdout up to then. */
async function serveUntilListening(env: NodeJS.ProcessEnv): Promise<{ stdout: string }> {
  // A process: what is checked is the server's start-up and the log it writes to stdout.
  const child = spawn(process.execPath, [HUB_BIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  await waitForOutput(child, /"msg":"listening"/);
  const closed = new Promise((resolve) => child.once('close', resolve));
  child.kill('SIGTERM');
  await closed;
  return { stdout };
}
