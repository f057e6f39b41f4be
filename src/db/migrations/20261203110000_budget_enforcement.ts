import type { Knex } from 'knex';

/**
 * `budgets.enforcement`: what reaching a budget's amount does — `alert` (announce, as every
 * budget did before) or `block` (admission denies the runs it applies to). Existing budgets alert.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('budgets', (t) => {
    t.string('enforcement', 8).notNullable().defaultTo('alert');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('budgets', (t) => {
    t.dropColumn('enforcement');
  });
}
