import type { Knex } from 'knex';

/**
 * A chat binding names its project's organization, so the explorer reads an organization's live
 * bindings through one small index range instead of probing the bindings once per project: with
 * 20,000 projects and a few hundred bindings that was most of the explorer's query time. Existing
 * bindings take their project's organization; a project never changes organization.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('project_bindings', (t) => {
    t.string('organization_id', 36).nullable().references('id').inTable('organizations').onDelete('CASCADE');
  });
  await knex.raw(
    'update project_bindings set organization_id = ' +
      '(select p.organization_id from projects p where p.id = project_bindings.project_id)',
  );
  await knex.raw(
    'create index project_bindings_active_org_idx on project_bindings (organization_id, project_id, chat_id, ' +
      'created_at) where archived_at is null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index project_bindings_active_org_idx');
  await knex.schema.alterTable('project_bindings', (t) => {
    t.dropColumn('organization_id');
  });
}
