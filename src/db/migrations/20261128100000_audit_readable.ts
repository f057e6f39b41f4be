import type { Knex } from 'knex';

/**
 * `audit_events.target_label`: the target's name when the event was written (a member's display
 * name, a team's name, a webhook's host…), so an event still reads after its target is renamed or
 * gone. Events written before this column answer null: their targets' names then are not known.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_events', (t) => {
    t.string('target_label', 300).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  // Plain ALTER TABLE on both engines: knex's SQLite dropColumn copies the table and drops it.
  await knex.raw('alter table audit_events drop column target_label');
}
