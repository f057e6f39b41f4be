import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okBody } from '../support/assertions.js';
import { cliEnv, runHub } from '../support/hub-cli.js';
import { type OrgFixture, seedOrg } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';

let hub: TestHub;
let org: OrgFixture;
let other: OrgFixture;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'binding');
  other = await seedOrg(hub, 'elsewhere');
  env = cliEnv(hub.database.dataDir, hub.database.databaseUrl);
});
afterAll(() => hub.stop());

describe('hub domain verify', () => {
  it('verifies a domain for the organization without DNS, audited as the console', async () => {
    const pending = await okBody(org.call('owner', 'addDomain', { body: { domain: 'pending.example' } }), 201);
    const result = await runHub(['domain', 'verify', org.slug, 'Pending.Example.'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^verified pending\.example for binding \(.+\) at \d{4}-.+Z\n$/);
    const fresh = await runHub(['domain', 'verify', org.slug, 'fresh.example'], env);
    expect(fresh.code, fresh.stderr).toBe(0);

    const { domains } = await okBody(org.call('owner', 'listDomains'));
    expect(domains.map((d) => [d.domain, d.status])).toEqual([
      ['fresh.example', 'verified'],
      ['pending.example', 'verified'],
    ]);
    expect(domains[1]!.id).toBe(pending.id);
    const events = await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'hub.domain.verify' } }));
    expect(events.events).toHaveLength(2);
    expect(events.events[0]).toMatchObject({ actor: { type: 'console' }, target: { type: 'domain' } });
  });

  it('refuses a domain another organization has verified, and nonsense, with exit 2', async () => {
    const claimed = await runHub(['domain', 'verify', other.slug, 'fresh.example'], env);
    expect(claimed.code).toBe(2);
    expect(claimed.stderr).toContain('Another organization has verified fresh.example');
    for (const args of [
      ['domain', 'verify', other.slug, '*.example'],
      ['domain', 'verify', 'no-such-org', 'a.example'],
      ['domain', 'verify', other.slug],
      ['domain', 'bind', other.slug, 'a.example'],
    ]) {
      const result = await runHub(args, env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    expect((await okBody(other.call('owner', 'listDomains'))).domains).toEqual([]);
  });
});
