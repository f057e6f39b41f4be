import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, okBody } from '../support/assertions.js';
import { cliEnv, runHub } from '../support/hub-cli.js';
import { type OrgFixture, seedOrg } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';

let hub: TestHub;
let org: OrgFixture;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'inviting');
  env = cliEnv(hub.database.dataDir, hub.database.databaseUrl);
});
afterAll(() => hub.stop());

/** Someone with a session and no membership. */
async function person(imOpenId: string): Promise<string> {
  await hub.services.users.ensure(hub.services.db, { imOpenId }, hub.clock.now());
  return hub.login(imOpenId);
}

describe('hub invite', () => {
  it('prints a link alone on stdout that makes its visitor a member with the role and teams', async () => {
    const team = await okBody(org.call('owner', 'createTeam', { body: { slug: 'platform', name: 'Platform' } }));
    const result = await runHub(['invite', org.slug, '--role', 'OWNER', '--team', 'platform', '--expires', '3d'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^https?:\/\/[^/]+\/invite\/[A-Za-z0-9_-]{43}\n$/);
    expect(result.stderr).toMatch(/^invited to inviting as OWNER \(.+\), until \d{4}-.+Z\n$/);

    const [row] = (await okBody(org.call('owner', 'listInvitations'))).invitations;
    expect(row).toMatchObject({
      role: 'OWNER',
      teamIds: [team.id],
      createdBy: { id: null, displayName: 'hub console' },
    });
    expect(Date.parse(row!.expiresAt) - Date.parse(row!.createdAt)).toBe(3 * 86_400_000);

    const token = result.stdout.trim().split('/invite/')[1]!;
    const accepted = await hub.call('acceptInvitation', { path: { token }, cookie: await person('console-invitee') });
    expectOk(accepted);
    expect(accepted.body).toMatchObject({ member: { imOpenId: 'console-invitee', role: 'OWNER' }, teamIds: [team.id] });

    const events = await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'hub.invite' } }));
    expect(events.events).toEqual([
      expect.objectContaining({ actor: { type: 'console', id: null, displayName: 'hub console' } }),
    ]);
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it('refuses bad arguments in one line, creating nothing', async () => {
    const before = await hub.services.db('invitations').count({ n: '*' });
    for (const [args, message] of [
      [['invite', org.slug], /--role is required/],
      [['invite', org.slug, '--role', 'GUEST'], /--role is one of OWNER, ADMIN, MEMBER/],
      [['invite', org.slug, '--role', 'MEMBER', '--expires', '31d'], /--expires takes 1d to 30d/],
      [['invite', org.slug, '--role', 'MEMBER', '--expires', '12h'], /--expires takes 1d to 30d/],
      [['invite', org.slug, '--role', 'MEMBER', '--email', 'nobody'], /no address/],
      [['invite', org.slug, '--role', 'MEMBER', '--team', 'nope'], /no active team "nope"/],
      [['invite', 'no-such-org', '--role', 'MEMBER'], /no organization "no-such-org"/],
    ] as const) {
      const result = await runHub([...args], env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
    }
    expect(await hub.services.db('invitations').count({ n: '*' })).toEqual(before);
  });
});
