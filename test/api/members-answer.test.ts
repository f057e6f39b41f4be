import { beforeAll, describe, expect, it } from 'vitest';
import type { Schema } from '../../src/api/types.js';
import { expectOk } from '../support/assertions.js';
import { inMemberListOrder } from '../support/list-order.js';
import { hubWithOwnedOrg } from '../support/owned-org.js';

/**
 * The member list's answer: the whole list's text the database writes is sent as it is unless a
 * name needs sorting here. The test client checks it against the contract as it checks every
 * answer; these tests hold it to what the schema cannot say: each member byte for byte as
 * addMember answered it, the list's order, the same list in pages, and the very bytes `res.json`
 * would send.
 */
type OrgMember = Schema<'OrgMember'>;

const initech = hubWithOwnedOrg('initech');

/** Each member as addMember answered it, by userId. */
const answered = new Map<string, OrgMember>();

async function addMember(imOpenId: string, displayName: string, avatarUrl?: string): Promise<OrgMember> {
  const body = { imOpenId, displayName, role: 'MEMBER' as const, ...(avatarUrl && { avatarUrl }) };
  const res = await initech.hub.orgCall('initech', initech.cookie, 'addMember', { body });
  expectOk(res, 201);
  answered.set(res.body.userId, res.body);
  return res.body;
}

/** The member list as sent: its text and type, and its body parsed. */
async function listMembers(query = '') {
  const res = await initech.hub.request('GET', `/api/org/initech/members${query}`, { cookie: initech.cookie });
  expect(res.status).toBe(200);
  return { text: res.text, type: res.headers.get('content-type'), body: res.body as Schema<'MemberList'> };
}

/** Every listed member in the schema's order of members, and byte for byte as addMember answered it. */
function expectEachAsAnswered(members: OrgMember[]) {
  for (const listed of members) {
    expect(Object.keys(listed)).toEqual(['userId', 'imOpenId', 'displayName', 'avatarUrl', 'role', 'createdAt']);
    const added = answered.get(listed.userId);
    if (added) expect(JSON.stringify(listed)).toBe(JSON.stringify(added));
  }
}

describe('the member list answer', () => {
  // Display names whose order by bytes and by the locale differ (case, punctuation, digits),
  // letters beyond ASCII that lower-casing leaves alone, a tie only the imOpenId breaks, and
  // JSON's own escapes.
  const people: [string, string][] = [
    ['u-beta', 'beta'],
    ['u-alpha-upper', 'Alpha'],
    ['u-alpha-lower', 'alpha'],
    ['u-a_b', 'a_b'],
    ['u-ab', 'ab'],
    ['u-A-c', 'A-c'],
    ['u-zeta-upper', 'Zeta'],
    ['u-0day', '0day'],
    ['u-tilde', '~tilde'],
    ['u-alpha-twin', 'Alpha'],
    ['u-quote', 'say "hi" \\ o/'],
    ['u-emile', 'émile'],
    ['u-garcia', 'Ana García'],
  ];

  beforeAll(async () => {
    for (const [i, [imOpenId, displayName]] of people.entries())
      await addMember(imOpenId, displayName, i % 2 === 0 ? `https://avatars.example/${imOpenId}.png` : undefined);
  });

  it('whole: the text the database wrote, the bytes res.json would send', async () => {
    const { text, type, body } = await listMembers();
    expect(type).toBe('application/json; charset=utf-8');
    expect(text).toBe(JSON.stringify(body));
    expect(body.nextCursor).toBeNull();
    expect(body.members.map((m) => m.imOpenId).sort()).toEqual(
      ['initech-owner', ...people.map(([imOpenId]) => imOpenId)].sort(),
    );
    expect(body.members.map((m) => m.userId)).toEqual(inMemberListOrder(body.members).map((m) => m.userId));
    expect(body.members.find((m) => m.imOpenId === 'initech-owner')).toMatchObject({ role: 'OWNER', avatarUrl: null });
    expectEachAsAnswered(body.members);
  });

  it('in pages: the same members in the same order, each page as res.json makes it', async () => {
    const whole = (await listMembers()).body.members;
    const paged: OrgMember[] = [];
    let cursor: string | null = null;
    do {
      const { text, body } = await listMembers(`?limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(text).toBe(JSON.stringify(body));
      expect(body.members.length).toBeLessThanOrEqual(5);
      paged.push(...body.members);
      cursor = body.nextCursor;
    } while (cursor);
    expect(paged).toEqual(whole);
  });

  it('with a capital beyond ASCII: sorted here, the same members and text as res.json makes', async () => {
    // 'ß' sorts between 'Ä' and 'ä': the database's order puts Ärger first, the list's ßar.
    const umlaut = await addMember('u-umlaut', 'Ärger');
    const sharp = await addMember('u-sharp', 'ßar');
    const { text, body } = await listMembers();
    expect(text).toBe(JSON.stringify(body));
    expect(body.members.map((m) => m.userId)).toEqual(inMemberListOrder(body.members).map((m) => m.userId));
    expect(body.members.slice(-3).map((m) => m.displayName)).toEqual(['ßar', 'Ärger', 'émile']);
    expect([sharp.userId, umlaut.userId].every((id) => body.members.some((m) => m.userId === id))).toBe(true);
    expectEachAsAnswered(body.members);
  });

  it('leaves out revoked members', async () => {
    const revoked = [...answered.values()].find((m) => m.imOpenId === 'u-beta')!;
    expectOk(
      await initech.hub.orgCall('initech', initech.cookie, 'revokeMember', { path: { userId: revoked.userId } }),
    );
    const { body } = await listMembers();
    expect(body.members.map((m) => m.userId)).not.toContain(revoked.userId);
    expect(body.members).toHaveLength(answered.size);
  });
});
