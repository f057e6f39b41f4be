import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest, pendingMigrations, rollBack } from '../../src/db/migrate.js';
import { expectOk } from '../support/assertions.js';
import { TestHub } from '../support/test-hub.js';

const MEMBERSHIP_PROFILE = '20261128020000_membership_profile';
let hub: TestHub;

beforeAll(async () => {
  hub = await TestHub.start();
  const org = await hub.createOrg('legacy', 'legacy-owner');
  await hub.addMembership(org.id, 'legacy-member', 'MEMBER');
});
afterAll(() => hub.stop());

const columnsOf = async (table: string) => Object.keys(await hub.services.db(table).columnInfo());

describe('the membership profile migration', () => {
  it('keeps what every organization showed before, and goes down and up again', async () => {
    const { db } = hub.services;
    const count = async (table: string) => Number((await db(table).count({ n: '*' }))[0]!.n);
    const rows = async () => ({ users: await count('users'), memberships: await count('memberships') });
    const before = await rows();
    await rollBack(db, MEMBERSHIP_PROFILE);
    expect(await pendingMigrations(db)).toEqual([MEMBERSHIP_PROFILE]);
    // Down drops the columns and nothing else: no row that references a user goes with them.
    expect(await rows()).toEqual(before);
    expect(await columnsOf('memberships')).not.toContain('display_name');
    expect(await columnsOf('users')).not.toContain('profile_from_provider_at');
    // Before: the name and avatar of the first organization to add someone were the user's.
    await db('users')
      .where({ im_open_id: 'legacy-member' })
      .update({ display_name: 'Legacy Name', avatar_url: 'https://images.example.com/legacy.png' });

    await migrateLatest(db);
    const membership = await db('memberships as m')
      .join('users as u', 'u.id', 'm.user_id')
      .where('u.im_open_id', 'legacy-member')
      .first('m.display_name', 'm.avatar_url', 'u.profile_from_provider_at');
    expect(membership).toEqual({
      display_name: 'Legacy Name',
      avatar_url: 'https://images.example.com/legacy.png',
      profile_from_provider_at: null,
    });
    const listed = await hub.orgCall('legacy', await hub.login('legacy-owner'), 'listMembers');
    expectOk(listed);
    expect(listed.body.members.find((m) => m.imOpenId === 'legacy-member')).toMatchObject({
      displayName: 'Legacy Name',
      avatarUrl: 'https://images.example.com/legacy.png',
    });
  });
});
