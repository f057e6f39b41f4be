import type { Knex } from 'knex';

/**
 * Budgets and spend alerts (docs/decisions.md, "Budgets and spend alerts").
 *
 * - `budgets`: an organization's spend limits; `thresholds` is a JSON array of ascending percents.
 * - `budget_alerts`: each threshold announced, once per budget and period. Its key is what makes
 *   an announcement happen once: the row is inserted (or found already there) in the transaction
 *   that writes the `budget.threshold` audit event.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('budgets', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('scope_type', 16).notNullable(); // organization | folder | project
    t.string('scope_id', 128).nullable();
    t.string('metric', 16).notNullable(); // costUsd | tokens
    t.double('amount').notNullable();
    t.string('period', 8).notNullable(); // day | week | month
    t.text('thresholds').notNullable();
    t.string('created_at', 24).notNullable();
    t.string('updated_at', 24).notNullable();
    t.index(['organization_id'], 'budgets_org_idx');
  });

  await knex.schema.createTable('budget_alerts', (t) => {
    t.string('budget_id', 36).notNullable().references('id').inTable('budgets').onDelete('CASCADE');
    t.string('period_start', 24).notNullable();
    t.integer('threshold').notNullable();
    t.double('spent').notNullable();
    t.string('created_at', 24).notNullable();
    t.primary(['budget_id', 'period_start', 'threshold'], 'budget_alerts_pkey');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('budget_alerts');
  await knex.schema.dropTable('budgets');
}
