import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/services.js';
import { ConnectionUnavailableError } from '../../src/connections/resolver.js';
import { TamperedEnvelopeError, UnknownKeyIdError } from '../../src/crypto/errors.js';
import { Keyring } from '../../src/crypto/keyring.js';
import type { HttpResult, RequestBody } from '../support/api-client.js';
import { errorBody, expectError, okBody } from '../support/assertions.js';
import { everyRow } from '../support/every-row.js';
import { seedOrg, type OrgActor, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';

/** External-capability connections: list, create/rotate, disable; sealed headers; the resolver. */

let hub: TestHub;
/** Every response text of this file, for the leak scan. */
const seen: string[] = [];
let counter = 0;
const freshOrg = () => seedOrg(hub, `cap-${++counter}`);

beforeAll(async () => {
  hub = await TestHub.start();
});
afterAll(() => hub.stop());

const db = () => hub.services.db;
const canary = (label: string) => `CANARY-${label}-${randomBytes(9).toString('hex')}`;

async function put(
  org: OrgFixture,
  capabilityId: string,
  body: RequestBody<'putCapabilityConnection'>,
  actor: OrgActor = 'owner',
) {
  const res = await org.call(actor, 'putCapabilityConnection', { path: { capabilityId }, body });
  seen.push(res.text);
  return res;
}
/** A request the contract may refuse, sent as it is. */
async function putRaw(
  org: OrgFixture,
  capabilityId: string,
  body: unknown,
  actor: OrgActor = 'owner',
): Promise<HttpResult> {
  const res = await org.api(actor, 'PUT', `/capability-connections/${capabilityId}`, body);
  seen.push(res.text);
  return res;
}
const search = (headers?: Record<string, string>): RequestBody<'putCapabilityConnection'> => ({
  label: 'Web search',
  kind: 'http',
  endpointUrl: 'https://search.example.com/v1',
  ...(headers ? { headers } : {}),
});

/** Every row of the capability tables; a refused call must leave it as it was. */
async function snapshot(): Promise<string> {
  return JSON.stringify([
    await db()('capability_connections').select().orderBy('id'),
    await db()('capability_connection_versions').select().orderBy(['connection_id', 'version']),
  ]);
}

describe('putCapabilityConnection', () => {
  it('creates the connection on the first PUT: ACTIVE, version 1, the row without headers', async () => {
    const org = await freshOrg();
    const row = await okBody(put(org, 'web-search', search({ Authorization: 'Bearer sk-1' })));
    expect(row).toEqual({
      id: expect.any(String),
      capabilityId: 'web-search',
      label: 'Web search',
      kind: 'http',
      endpointUrl: 'https://search.example.com/v1',
      status: 'ACTIVE',
      activeVersion: 1,
      keyId: expect.any(String),
      createdAt: hub.clock.now().toISOString(),
      updatedAt: hub.clock.now().toISOString(),
    });
    expect(JSON.stringify(row)).not.toContain('sk-1');
    expect(await okBody(org.call('admin', 'listCapabilityConnections'))).toEqual({ connections: [row] });
    const resolved = await hub.services.credentials.resolveCapabilityCredentials(org.id, 'web-search');
    expect(resolved).toMatchObject({
      capabilityId: 'web-search',
      label: 'Web search',
      kind: 'http',
      endpointUrl: 'https://search.example.com/v1',
      headers: { Authorization: 'Bearer sk-1' },
      version: 1,
    });
  });

  it('rotates: a new version with the new endpoint, label and whole header set; earlier versions kept', async () => {
    const org = await freshOrg();
    const first = await okBody(put(org, 'docs', { ...search({ 'X-Api-Key': 'k1', 'X-Team': 't' }), kind: 'mcp' }));
    hub.clock.advance(1000);
    const second = await okBody(
      put(org, 'docs', {
        label: 'Docs MCP',
        kind: 'mcp',
        endpointUrl: 'https://mcp.example.com/sse',
        headers: { 'X-Api-Key': 'k2' },
      }),
    );
    expect(second).toMatchObject({
      id: first.id,
      label: 'Docs MCP',
      kind: 'mcp',
      endpointUrl: 'https://mcp.example.com/sse',
      activeVersion: 2,
      createdAt: first.createdAt,
    });
    expect(second.updatedAt).not.toBe(first.updatedAt);
    expect(
      Number(
        (await db()('capability_connection_versions').where({ connection_id: first.id }).count({ n: '*' }).first())?.n,
      ),
    ).toBe(2);
    expect((await hub.services.credentials.resolveCapabilityCredentials(org.id, 'docs')).headers).toEqual({
      'X-Api-Key': 'k2',
    });
    // Without headers: none.
    await okBody(put(org, 'docs', { label: 'Docs MCP', kind: 'mcp', endpointUrl: 'https://mcp.example.com/sse' }));
    expect((await hub.services.credentials.resolveCapabilityCredentials(org.id, 'docs')).headers).toEqual({});
  });

  it('refuses a bad endpoint, header, id or kind with 400, changing nothing', async () => {
    const org = await freshOrg();
    await okBody(put(org, 'kept', search()));
    const before = await snapshot();
    for (const endpointUrl of [
      'http://search.example.com',
      'ftp://x.example.com',
      'https://user:pw@x.example.com',
      'not a url',
    ]) {
      const res = await putRaw(org, 'kept', { ...search(), endpointUrl });
      expectError(res, 400, 'validation_failed');
      expect(JSON.stringify(errorBody(res).error)).toContain('endpointUrl');
    }
    const bad: unknown[] = [
      { ...search(), headers: { 'Bad Header': 'x' } },
      { ...search(), headers: { 'X-Key': 'line\nbreak' } },
      { ...search(), headers: { 'X-Key': 'a', 'x-key': 'b' } },
      { ...search(), headers: { 'X-Key': 5 } },
      { ...search(), kind: 'grpc' },
      { ...search(), label: '' },
      { kind: 'http', endpointUrl: 'https://x.example.com' },
      { ...search(), extra: true },
    ];
    for (const body of bad) expectError(await putRaw(org, 'kept', body), 400, 'validation_failed');
    for (const id of ['Upper', '-lead', 'a_b', 'x'.repeat(64)])
      expectError(await putRaw(org, id, search()), 400, 'validation_failed');
    expect(await snapshot()).toBe(before);
    // http on a loopback host is fine, as for provider base URLs.
    expect((await put(org, 'local', { ...search(), endpointUrl: 'http://127.0.0.1:9000/mcp' })).status).toBe(200);
  });
});

describe('disableCapabilityConnection', () => {
  it('sets DISABLED (versions kept, again a no-op), the resolver refuses it, and a PUT reactivates it', async () => {
    const org = await freshOrg();
    const created = await okBody(put(org, 'search', search({ Authorization: 'Bearer a' })));
    hub.clock.advance(1000);
    const disabled = await okBody(
      org.call('admin', 'disableCapabilityConnection', { path: { capabilityId: 'search' } }),
    );
    expect(disabled).toEqual({ ...created, status: 'DISABLED', updatedAt: hub.clock.now().toISOString() });
    await expect(hub.services.credentials.resolveCapabilityCredentials(org.id, 'search')).rejects.toBeInstanceOf(
      ConnectionUnavailableError,
    );
    hub.clock.advance(1000);
    expect(
      await okBody(org.call('admin', 'disableCapabilityConnection', { path: { capabilityId: 'search' } })),
    ).toEqual(disabled);
    expect(await okBody(put(org, 'search', search({ Authorization: 'Bearer b' })))).toMatchObject({
      status: 'ACTIVE',
      activeVersion: 2,
    });
    expect((await hub.services.credentials.resolveCapabilityCredentials(org.id, 'search')).headers).toEqual({
      Authorization: 'Bearer b',
    });
    expectError(
      await org.call('owner', 'disableCapabilityConnection', { path: { capabilityId: 'nothing' } }),
      404,
      'connection_not_found',
    );
  });
});

describe('the resolver fails closed', () => {
  it('refuses an unknown connection, a key it lacks, and an envelope moved to another connection', async () => {
    const org = await freshOrg();
    await expect(hub.services.credentials.resolveCapabilityCredentials(org.id, 'none')).rejects.toMatchObject({
      reason: 'not_found',
    });
    const a = await okBody(put(org, 'a', search({ 'X-Key': 'secret-a' })));
    const b = await okBody(put(org, 'b', search({ 'X-Key': 'secret-b' })));

    // A server holding only another master key cannot open the envelope, and does not fall back.
    const other = createServices({
      config: hub.services.config,
      db: db(),
      clock: hub.clock,
      logger: hub.services.logger,
      keyring: fixedKeyringOf('other'),
    });
    await expect(other.credentials.resolveCapabilityCredentials(org.id, 'a')).rejects.toBeInstanceOf(UnknownKeyIdError);

    // b's envelope copied over a's: it authenticates only where it was sealed.
    const envelopeOf = (connectionId: string) =>
      db()('capability_connection_versions').where({ connection_id: connectionId, version: 1 }).first();
    const sealedB = await envelopeOf(b.id);
    const {
      connection_id: _,
      version: __,
      ...envelope
    } = sealedB as Record<string, unknown> & { connection_id: string; version: number };
    await db()('capability_connection_versions').where({ connection_id: a.id, version: 1 }).update(envelope);
    await expect(hub.services.credentials.resolveCapabilityCredentials(org.id, 'a')).rejects.toBeInstanceOf(
      TamperedEnvelopeError,
    );
  });
});

/** A keyring with one fresh key of this id, active. */
const fixedKeyringOf = (keyId: string) => new Keyring(new Map([[keyId, randomBytes(32)]]), keyId);

describe('header secrets never leak', () => {
  it('not into a response, a log line, the database rows or files', async () => {
    const org = await freshOrg();
    const secrets = {
      bearer: canary('bearer'),
      apiKey: canary('apiKey'),
      rotated: canary('rotated'),
      refused: canary('refused'),
    };
    await okBody(put(org, 'leaky', search({ Authorization: `Bearer ${secrets.bearer}`, 'X-Api-Key': secrets.apiKey })));
    await okBody(put(org, 'leaky', search({ Authorization: `Bearer ${secrets.rotated}` })));
    expectError(
      await putRaw(org, 'leaky', { ...search({ 'X-Api-Key': secrets.refused }), endpointUrl: 'http://example.com' }),
      400,
      'validation_failed',
    );
    expectError(await putRaw(org, 'leaky', search({ 'X-Api-Key': `${secrets.refused}\n` })), 400, 'validation_failed');
    expectError(await put(org, 'leaky', search({ 'X-Api-Key': secrets.refused }), 'member'), 403, 'org_admin_required');
    seen.push((await org.api('owner', 'GET', '/capability-connections')).text);
    expect((await hub.services.credentials.resolveCapabilityCredentials(org.id, 'leaky')).headers.Authorization).toBe(
      `Bearer ${secrets.rotated}`,
    );
    expect(hub.logLines.some((line) => line.includes('capability connection credentials sealed'))).toBe(true);

    const places: Array<[string, string]> = [
      ['responses', seen.join('\n')],
      ['log lines', hub.logLines.join('\n')],
      ['database rows', await everyRow(hub)],
    ];
    if (hub.database.engine === 'sqlite') {
      for (const file of ['hub.sqlite', 'hub.sqlite-wal']) {
        const full = path.join(hub.database.dataDir, file);
        if (fs.existsSync(full)) places.push([file, fs.readFileSync(full).toString('latin1')]);
      }
    }
    const hits: string[] = [];
    for (const [where, text] of places)
      for (const [name, value] of Object.entries(secrets)) if (text.includes(value)) hits.push(`${name} in ${where}`);
    expect(hits).toEqual([]);
  });
});
