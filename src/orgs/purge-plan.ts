import type { ForeignKey, SchemaGraph } from '../db/schema-graph.js';

/**
 * Tables that hold no organization's rows: people and their sign-ins (a person outlives any one
 * organization), the host's configuration, its own log and its runtime credentials, content-addressed skill content
 * (shared by every organization that installs the same bytes), and the migrations' bookkeeping.
 * A test checks that every table of the schema is either one of these or one the plan purges,
 * so a table added later is classified by whoever adds it.
 */
export const NOT_ORGANIZATION_TABLES: ReadonlySet<string> = new Set([
  'users',
  'login_links',
  'login_sessions',
  'identity_providers',
  'user_identities',
  'pending_sign_ins',
  'skill_content_entries',
  'skill_content_files',
  'host_audit_events',
  'runtime_credentials',
  'knex_migrations',
  'knex_migrations_lock',
]);

/**
 * One delete of the purge: the rows of `table` that belong to the organization, found by its
 * `organization_id` or, for a table without one, through the foreign key to the row it hangs
 * from (`via`, itself a step of the plan).
 */
export interface PurgeStep {
  table: string;
  via?: { column: string; parent: PurgeStep; parentColumn: string };
}

/**
 * The purge derived from the schema as it is, not from a list: every table with an
 * `organization_id` column, every table that hangs by a foreign key from one of those (team
 * members from teams, a webhook's secrets from the webhook), and at last the organization's own
 * row. The steps are ordered so that a row goes before any row it references, as the foreign
 * keys require on both databases.
 */
export function purgePlan(schema: SchemaGraph): PurgeStep[] {
  const root: PurgeStep = { table: 'organizations' };
  const steps = new Map<string, PurgeStep>();
  for (const [table, columns] of schema.columns) {
    if (columns.has('organization_id') && table !== 'organizations') steps.set(table, { table });
  }
  // Tables reached through a foreign key, until no further one hangs from the steps found.
  for (let grew = true; grew; ) {
    grew = false;
    for (const key of schema.foreignKeys) {
      if (steps.has(key.table) || key.table === root.table || NOT_ORGANIZATION_TABLES.has(key.table)) continue;
      const parent = key.refTable === root.table ? root : steps.get(key.refTable);
      if (!parent) continue;
      steps.set(key.table, { table: key.table, via: { column: key.column, parent, parentColumn: key.refColumn } });
      grew = true;
    }
  }
  return [...childrenFirst([...steps.values()], schema.foreignKeys), root];
}

/** The steps, each after every step whose table references its table (self-references aside). */
function childrenFirst(steps: PurgeStep[], keys: ForeignKey[]): PurgeStep[] {
  const planned = new Set(steps.map((step) => step.table));
  const referencedBy = new Map<string, Set<string>>();
  for (const key of keys) {
    if (key.table === key.refTable || !planned.has(key.table) || !planned.has(key.refTable)) continue;
    const referrers = referencedBy.get(key.refTable) ?? new Set<string>();
    referrers.add(key.table);
    referencedBy.set(key.refTable, referrers);
  }
  const ordered: PurgeStep[] = [];
  const done = new Set<string>();
  const visiting = new Set<string>();
  const byTable = new Map(steps.map((step) => [step.table, step]));
  const visit = (table: string) => {
    if (done.has(table) || visiting.has(table)) return;
    visiting.add(table);
    for (const referrer of [...(referencedBy.get(table) ?? [])].sort()) visit(referrer);
    visiting.delete(table);
    done.add(table);
    ordered.push(byTable.get(table)!);
  };
  for (const table of [...planned].sort()) visit(table);
  return ordered;
}
