import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest, pendingMigrations, rollBack } from '../../src/db/migrate.js';
import { okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';

const VERIFIED_DOMAINS = '20261201200000_verified_domains';
let hub: TestHub;
let byEmail: OrgFixture;
let byTenant: OrgFixture;

beforeAll(async () => {
  hub = await TestHub.start();
  byEmail = await seedOrg(hub, 'legacy-email');
  byTenant = await seedOrg(hub, 'legacy-tenant');
});
afterAll(() => hub.stop());

/** A rule as the settings row held it before domains were verified. */
const setLegacyRule = (org: OrgFixture, rule: { emailDomains: string[]; tenantKeys: string[] }) =>
  hub.services
    .db('organization_settings')
    .where({ organization_id: org.id })
    .update({ auto_join_provider_id: 'corp', auto_join: JSON.stringify({ ...rule, role: 'MEMBER' }) });

describe('the verified-domains migration', () => {
  it('switches off the rules that name email domains, says why, and goes down and up again', async () => {
    const { db } = hub.services;
    await rollBack(db, VERIFIED_DOMAINS);
    expect(await pendingMigrations(db)).toEqual([VERIFIED_DOMAINS]);
    expect(await db.schema.hasTable('organization_domains')).toBe(false);
    await setLegacyRule(byEmail, { emailDomains: ['other-company.example'], tenantKeys: ['t1'] });
    await setLegacyRule(byTenant, { emailDomains: [], tenantKeys: ['t2'] });

    await migrateLatest(db);
    const settings = await okBody(byEmail.call('member', 'getOrgSettings'));
    expect(settings.autoJoin).toMatchObject({
      providerId: 'corp',
      emailDomains: ['other-company.example'],
      tenantKeys: ['t1'],
      disabledReason: { code: 'domain_not_verified', domains: ['other-company.example'] },
    });
    expect(settings.autoJoin!.disabledReason!.message).toContain('other-company.example is not verified');
    // A rule by tenant key alone keeps applying.
    expect((await okBody(byTenant.call('member', 'getOrgSettings'))).autoJoin).toMatchObject({
      tenantKeys: ['t2'],
      disabledReason: null,
    });
    // The switched-off rule is not one a sign-in applies; the other is.
    const applying = await hub.services.db('organization_settings').where({ auto_join_provider_id: 'corp' });
    expect(applying.filter((row) => row.auto_join_disabled === null).map((row) => row.organization_id)).toEqual([
      byTenant.id,
    ]);

    // Turned off by an admin, nothing of the old rule is left.
    await okBody(byEmail.call('owner', 'updateOrgSettings', { body: { autoJoin: null } }));
    const cleared = await db('organization_settings').where({ organization_id: byEmail.id }).first();
    expect(cleared).toMatchObject({ auto_join: null, auto_join_provider_id: null, auto_join_disabled: null });
  });
});
