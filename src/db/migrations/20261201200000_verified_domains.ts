import type { Knex } from 'knex';

/**
 * Domains an organization owns (docs/verified-domains.md).
 *
 * - `organization_domains`: each domain an organization added, in its kept spelling (lower case,
 *   ASCII form, no trailing dot), with the token its DNS TXT record must carry. An organization
 *   adds a domain once; any number may have it `pending`, and one at most has it `verified`: a
 *   partial unique index, which both databases enforce, so two verifications racing cannot both
 *   win.
 * - `organization_settings.auto_join_disabled`: why the automatic-membership rule is off while it
 *   is kept (JSON `{code, domains}`), null while it applies. Every rule with an email domain is
 *   switched off here, as no domain was verified before this migration: a rule could name any
 *   company's domain. Rules by tenant key alone keep applying.
 * - `invitations (organization_id, status, expires_at)`: the count of an organization's pending
 *   invitations (at most 1,000) and its list filtered by status are index ranges.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('organization_domains', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('domain', 253).notNullable();
    t.string('status', 16).notNullable(); // pending | verified
    t.string('token', 64).notNullable();
    t.string('verified_at', 24).nullable();
    t.string('created_at', 24).notNullable();
    t.unique(['organization_id', 'domain'], { indexName: 'organization_domains_org_domain_unique' });
  });
  await knex.raw(
    'CREATE UNIQUE INDEX organization_domains_verified_unique ON organization_domains (domain) ' +
      "WHERE status = 'verified'",
  );
  await knex.schema.alterTable('organization_settings', (t) => {
    t.text('auto_join_disabled').nullable();
  });
  const rules = await knex('organization_settings')
    .whereNotNull('auto_join')
    .select<{ organization_id: string; auto_join: string }[]>('organization_id', 'auto_join');
  for (const row of rules) {
    const { emailDomains = [] } = JSON.parse(row.auto_join) as { emailDomains?: string[] };
    if (emailDomains.length === 0) continue;
    await knex('organization_settings')
      .where({ organization_id: row.organization_id })
      .update({ auto_join_disabled: JSON.stringify({ code: 'domain_not_verified', domains: emailDomains }) });
  }
  await knex.schema.alterTable('invitations', (t) => {
    t.index(['organization_id', 'status', 'expires_at'], 'invitations_org_status_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invitations', (t) => {
    t.dropIndex(['organization_id', 'status', 'expires_at'], 'invitations_org_status_idx');
  });
  await knex.schema.alterTable('organization_settings', (t) => {
    t.dropColumn('auto_join_disabled');
  });
  await knex.schema.dropTable('organization_domains');
}
