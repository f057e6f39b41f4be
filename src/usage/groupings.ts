import type { Knex } from 'knex';
import type { Schema } from '../api/types.js';
import type { Executor } from '../db/unit-of-work.js';
import { PERSON_GROUPINGS, type PersonGroupBy } from './initiators.js';
import type { FilterParams } from './records.js';
import { RUN_SUMS, type RunRollupKey } from './rollup-levels.js';
import type { UsageStore } from './store.js';
import type { TeamSums } from './team-sums.js';

/** Everything the report and the series group runs by. */
export type UsageGroupBy = Schema<'UsageSeriesGroupBy'>;

/**
 * How a grouping names its rows: the key and label expressions over the grouped sums `g` (column
 * `key`), after the joins they need. A key of `''` (no member, token or team) answers null.
 */
interface Labels {
  join?: (rows: Knex.QueryBuilder, db: Executor, organizationId: string) => Knex.QueryBuilder;
  key: string;
  label: (db: Executor) => Knex.Raw;
}

interface Grouping {
  /** The run level key it sums by; `team` reads the team sums (team-sums.ts). */
  key: RunRollupKey | 'team';
  labels: Labels;
  /** A run may count in several of its rows. */
  overlapping: boolean;
}

/** The key itself, for a model or a provider. */
const itself: Labels = { key: 'g.key', label: (db) => db.raw('g.key as label') };

/** A person's row labelled from `PERSON_GROUPINGS`; the rows without one labelled as it says. */
const person = (groupBy: PersonGroupBy): Labels => ({
  join: (rows, db, organizationId) =>
    rows.leftJoin(PERSON_GROUPINGS[groupBy].labels(db, organizationId).as('l'), 'l.id', 'g.key'),
  key: "case when g.key = '' then null else g.key end",
  label: (db) =>
    db.raw("case when g.key = '' then ? else coalesce(l.label, g.key) end as label", [PERSON_GROUPINGS[groupBy].none]),
});

export const GROUPINGS: Readonly<Record<UsageGroupBy, Grouping>> = {
  project: {
    key: 'project_id',
    overlapping: false,
    labels: {
      join: (rows, _db, organizationId) =>
        rows.join('projects as p', (on) => on.on('p.id', 'g.key').andOnVal('p.organization_id', '=', organizationId)),
      key: 'g.key',
      label: (db) => db.raw('p.name as label'),
    },
  },
  model: { key: 'model', overlapping: false, labels: itself },
  provider: { key: 'provider', overlapping: false, labels: itself },
  role: {
    key: 'role_id',
    overlapping: false,
    labels: {
      join: (rows, _db, organizationId) =>
        rows.leftJoin('agent_roles as ar', (on) =>
          on.on('ar.role_id', 'g.key').andOnVal('ar.organization_id', '=', organizationId),
        ),
      key: 'g.key',
      label: (db) => db.raw('coalesce(ar.label, g.key) as label'),
    },
  },
  member: { key: PERSON_GROUPINGS.member.key, overlapping: false, labels: person('member') },
  apiToken: { key: PERSON_GROUPINGS.apiToken.key, overlapping: false, labels: person('apiToken') },
  serviceAccount: {
    key: PERSON_GROUPINGS.serviceAccount.key,
    overlapping: false,
    labels: person('serviceAccount'),
  },
  team: {
    key: 'team',
    overlapping: true,
    labels: {
      join: (rows, _db, organizationId) =>
        rows.leftJoin('teams as t', (on) => on.on('t.id', 'g.key').andOnVal('t.organization_id', '=', organizationId)),
      key: "case when g.key = '' then null else g.key end",
      label: (db) => db.raw("case when g.key = '' then 'Unattributed' else coalesce(t.name, g.key) end as label"),
    },
  },
};

/**
 * The run sums of a window per group key (column `key`), and per `day` too when `byDay`: the
 * report's run sums (a run level, or the raw runs at the window's edges) or the team sums. Null
 * when the window is empty.
 */
export function groupSums(
  db: Executor,
  stores: { usage: UsageStore; teams: TeamSums },
  params: FilterParams,
  groupBy: UsageGroupBy,
  byDay: boolean,
): Knex.QueryBuilder | null {
  const { key } = GROUPINGS[groupBy];
  const days = byDay ? ['day'] : [];
  const sums =
    key === 'team'
      ? stores.teams.daySums(db, params)
      : stores.usage.runSums(db, params, [...(byDay ? ['day' as const] : []), key]);
  if (!sums) return null;
  const column = key === 'team' ? 'team_id' : key;
  return db
    .from(sums.as('s'))
    .groupBy(...days.map((d) => `s.${d}`), `s.${column}`)
    .select(
      ...days.map((d) => `s.${d}`),
      db.raw(`s.${column} as ${db.client.wrapIdentifier('key')}`),
      ...RUN_SUMS.map((m) => db.raw(`sum(s.${m}) as ${m}`)),
    );
}

/** Grouped sums `g` (column `key`, and `extra` columns) with each row's key and label. */
export function labelled(
  db: Executor,
  organizationId: string,
  groupBy: UsageGroupBy,
  sums: Knex.QueryBuilder,
  extra: string[] = [],
): Knex.QueryBuilder {
  const { labels } = GROUPINGS[groupBy];
  const rows: Knex.QueryBuilder = db.from(sums.as('g'));
  const joined: Knex.QueryBuilder = labels.join?.(rows, db, organizationId) ?? rows;
  return joined
    .select(extra.map((c) => `g.${c}`))
    .select(db.raw(`${labels.key} as ${db.client.wrapIdentifier('key')}`), labels.label(db))
    .select(RUN_SUMS.map((m) => `g.${m}`));
}
