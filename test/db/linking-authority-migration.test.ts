import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest, pendingMigrations, rollBack } from '../../src/db/migrate.js';
import { TestHub } from '../support/test-hub.js';

const LINKING_AUTHORITY = '20261201100000_linking_authority';
let hub: TestHub;

beforeAll(async () => {
  hub = await TestHub.start();
});
afterAll(() => hub.stop());

/** A provider row as `set` stored it before the flag existed (the sealed secret's columns filled with bytes). */
const providerRow = (id: string, kind: 'oidc' | 'lark', createdAt: string, disabledAt: string | null = null) => ({
  id,
  kind,
  label: id,
  endpoint: 'https://idp.example.com',
  client_id: 'hub',
  subject_claim: kind === 'lark' ? 'open_id' : 'sub',
  token_auth: 'client_secret_basic',
  allowed_tenants: '[]',
  allowed_email_domains: '[]',
  secret_version: 1,
  key_id: 'k1',
  ...Object.fromEntries(
    ['wrapped_key', 'wrap_iv', 'wrap_tag', 'iv', 'tag', 'ciphertext'].map((c) => [c, Buffer.from('x')]),
  ),
  disabled_at: disabledAt,
  created_at: createdAt,
  updated_at: createdAt,
});

describe('the linking authority migration', () => {
  it('gives the authority to the one enabled lark provider, ids to identities, and own names back', async () => {
    const { db } = hub.services;
    await rollBack(db, LINKING_AUTHORITY);
    expect(await pendingMigrations(db)).toEqual([LINKING_AUTHORITY]);
    await db('identity_providers').insert([
      providerRow('corp', 'oidc', '2026-11-27T00:00:00.000Z'),
      providerRow('lark', 'lark', '2026-11-28T00:00:00.000Z'),
      providerRow('old-lark', 'lark', '2026-11-26T00:00:00.000Z', '2026-11-29T00:00:00.000Z'),
    ]);
    const at = '2026-11-30T00:00:00.000Z';
    await db('users').insert([
      {
        id: 'u-linked',
        im_open_id: 'ou_linked',
        display_name: 'From lark',
        created_at: at,
        profile_from_provider_at: at,
      },
      {
        id: 'u-added',
        im_open_id: 'ou_added',
        display_name: 'Given by an org',
        avatar_url: 'https://a.example/x.png',
        created_at: at,
      },
    ]);
    await db('user_identities').insert({
      provider_id: 'lark',
      subject: 'ou_linked',
      user_id: 'u-linked',
      email: null,
      email_verified: false,
      created_at: at,
      last_sign_in_at: at,
    });

    await migrateLatest(db);
    const flags = await db('identity_providers').orderBy('id').select('id', 'links_im_open_id');
    expect(flags.map((p) => [p.id, Boolean(p.links_im_open_id)])).toEqual([
      ['corp', false],
      ['lark', true],
      ['old-lark', false],
    ]);
    const identity = await db('user_identities').where({ subject: 'ou_linked' }).first('id');
    expect(identity.id).toMatch(/^[0-9a-f-]{36}$/);
    const users = await db('users')
      .whereIn('id', ['u-linked', 'u-added'])
      .orderBy('id')
      .select('id', 'display_name', 'avatar_url');
    expect(users).toEqual([
      { id: 'u-added', display_name: 'ou_added', avatar_url: null },
      { id: 'u-linked', display_name: 'From lark', avatar_url: null },
    ]);
    // The index keeps it to one enabled holder, whatever writes the table.
    await expect(db('identity_providers').where({ id: 'corp' }).update({ links_im_open_id: true })).rejects.toThrow();
  });
});
