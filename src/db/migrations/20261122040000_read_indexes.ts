import type { Knex } from 'knex';

/**
 * Indexes measured by the structure and usage benchmarks:
 * - the explorer counts each folder's active projects; a partial index over active projects
 *   answers that without visiting archived rows or the table;
 * - the usage report sums runs per project; covering the summed columns in project order
 *   turns it (and the folder-filtered report) into an index-only scan.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'create index projects_active_org_folder_idx on projects (organization_id, folder_id) where archived_at is null',
  );
  await knex.raw(
    'create index runs_org_project_cover_idx on runs (organization_id, project_id, at, input_tokens, ' +
      'output_tokens, cost_usd)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index runs_org_project_cover_idx');
  await knex.raw('drop index projects_active_org_folder_idx');
}
