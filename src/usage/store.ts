import type { Knex } from 'knex';
import type { Executor } from '../db/unit-of-work.js';
import type { FolderTreeStore } from '../folder-tree/store.js';
import { costMicrosSql } from './cost-micros.js';
import {
  FACT_LEVELS,
  FACT_SUMS,
  levelFor,
  type PERSON_KEYS,
  RAW_RUN_KEY,
  RUN_LEVELS,
  RUN_SUMS,
  type RollupLevel,
  type RunRollupKey,
} from './rollup-levels.js';
import {
  chunks,
  type CapabilitySumRecord,
  type FactKindSumRecord,
  type FilterParams,
  type UsageFilter,
  type UsageRowRecord,
} from './records.js';
import { type PeriodRange, splitWindow } from './window-split.js';

/** Ids per `IN (…)` lookup. */
const LOOKUP_CHUNK = 5000;

/**
 * The usage reads: sums of the organization's runs and facts over a window, whole months and days
 * from the rollup levels and the window's partial edge days from the raw rows.
 */
export class UsageStore {
  /** The project folders, whose subtrees the folder filter reads. */
  constructor(private readonly folders: FolderTreeStore) {}

  /** Which of these project ids belong to the organization. */
  async projectIdsInOrg(db: Executor, organizationId: string, ids: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const chunk of chunks(ids, LOOKUP_CHUNK)) {
      const rows = await db('projects')
        .where('organization_id', organizationId)
        .whereIn('id', chunk)
        .select<{ id: string }[]>('id');
      for (const row of rows) found.add(row.id);
    }
    return found;
  }

  /**
   * Per-project sums of the organization's runs in [from, to), optionally only for projects in a
   * folder's subtree: whole months and days from the rollups, partial edge days from the raw runs
   * (windowSums), summed in one statement and joined to the organization's projects. The
   * organization is named in the join: on PostgreSQL a run's project id compares bytewise
   * (migration 20261124000000) and projects.id in the database's collation.
   */
  async usageByProject(db: Executor, organizationId: string, filter: UsageFilter): Promise<UsageRowRecord[]> {
    const sums = this.runSums(db, { organizationId, ...filter }, ['project_id']);
    if (!sums) return [];
    return (await db
      .from(sums.as('s'))
      .join('projects as p', (on) => on.on('p.id', 's.project_id').andOnVal('p.organization_id', '=', organizationId))
      .select('s.*', 'p.name as project_name', 'p.folder_id')) as UsageRowRecord[];
  }

  /**
   * Sums of the organization's runs under the filter per some of the run rollup's keys (the usage
   * series groups by day and by the run's project or agent), with the measures of RunSumRecord;
   * null when the window is empty.
   */
  runSums(db: Executor, params: FilterParams, keys: RunRollupKey[]): Knex.QueryBuilder | null {
    return this.windowSums(db, params, {
      levels: RUN_LEVELS,
      raw: 'runs',
      keys,
      rawKey: (key) => RAW_RUN_KEY[key as RunRollupKey],
      measures: RUN_SUMS,
      rawSums: (q) => rawRunSums(db, q),
    });
  }

  /** Sums of the organization's facts per kind under the filter (whole days from the rollups). */
  async factsByKind(db: Executor, organizationId: string, filter: UsageFilter): Promise<FactKindSumRecord[]> {
    const sums = this.factSums(db, { organizationId, ...filter }, ['kind'], false);
    return sums ? ((await sums) as FactKindSumRecord[]) : [];
  }

  /**
   * Sums of the capability facts per capability under the filter, each with the label of the
   * organization's connection to it (any status), null when there is none: the facts are
   * summed first, and only the per-capability rows joined to the connections.
   */
  async factsByCapability(db: Executor, organizationId: string, filter: UsageFilter): Promise<CapabilitySumRecord[]> {
    const sums = this.factSums(db, { organizationId, ...filter }, ['capability_id'], true);
    if (!sums) return [];
    return (await db
      .from(sums.as('s'))
      .leftJoin('capability_connections as c', (on) =>
        on.on('c.capability_id', 's.capability_id').andOnVal('c.organization_id', '=', organizationId),
      )
      .select('s.*', 'c.label')) as CapabilitySumRecord[];
  }

  private factSums(db: Executor, params: FilterParams, keys: string[], capabilities: boolean) {
    return this.windowSums(db, params, {
      levels: FACT_LEVELS,
      raw: 'run_facts',
      keys,
      measures: FACT_SUMS,
      only: capabilities ? { kind: 'capability' } : undefined,
      rawSums: (q) =>
        q.select(
          db.raw('count(*) as fact_count'),
          db.raw('count(r.cost_usd) as facts_with_cost'),
          db.raw('sum(r.quantity) as quantity'),
          db.raw(`sum(${costMicrosSql(db, 'r.cost_usd')}) as cost_micros`),
        ),
    });
  }

  /**
   * The sums of a window per `keys`: the rollups' rows for the window's whole months and days, at
   * the narrowest level that has every key the read needs (rollup-levels.ts), and the raw table's
   * rows for its partial edge days, added up in one statement; null when the window is empty.
   */
  private windowSums(
    db: Executor,
    params: FilterParams,
    of: {
      levels: readonly RollupLevel[];
      raw: string;
      keys: string[];
      measures: readonly string[];
      only?: Record<string, string> | undefined;
      /** A key's expression over the raw row `r`, when not the column itself. */
      rawKey?: (key: string) => string;
      rawSums: (q: Knex.QueryBuilder) => Knex.QueryBuilder;
    },
  ): Knex.QueryBuilder | null {
    const scopedByProject = params.projectId !== undefined || params.folderId !== undefined;
    const needed = [
      ...of.keys,
      ...Object.keys(of.only ?? {}),
      ...(scopedByProject ? ['project_id'] : []),
      ...personFilters(params).map(([key]) => key),
      ...(params.everInTeam !== undefined ? ['member_id'] : []),
    ];
    const monthly = levelFor(of.levels, 'month', needed);
    const daily = levelFor(of.levels, 'day', needed)!;
    const split = splitWindow(params.from, params.to, monthly !== null);
    const parts: Knex.QueryBuilder[] = [];
    const scoped = (table: string) => {
      const q = db(`${table} as r`).where('r.organization_id', params.organizationId);
      if (of.only) for (const [column, value] of Object.entries(of.only)) q.where(`r.${column}`, value);
      this.applyScope(db, q, params);
      // A person's column in a level, or its expression over a raw run.
      for (const [key, id] of personFilters(params)) {
        if (table === of.raw) q.whereRaw(`${RAW_RUN_KEY[key]} = ?`, [id]);
        else q.where(`r.${key}`, id);
      }
      // The person levels lead with the member: a few members' rows are a seek each.
      if (params.everInTeam !== undefined) {
        q.whereIn('r.member_id', db('team_members').where('team_id', params.everInTeam).select('user_id'));
      }
      return q;
    };
    // One part per range: a single range on an index's next column is a seek, where an OR of
    // ranges makes the engine read every row of the organization and test each.
    const rollupRows = (level: RollupLevel, range: PeriodRange) =>
      within(scoped(level.table), `r.${level.grain}`, range).select(
        ...of.keys.map((k) => `r.${k}`),
        ...of.measures.map((m) => `r.${m}`),
      );
    if (monthly && split.months) parts.push(rollupRows(monthly, split.months));
    for (const days of split.days) parts.push(rollupRows(daily, days));
    const rawKeys = of.keys.map((k) => of.rawKey?.(k) ?? `r.${k}`);
    for (const edge of split.edges) {
      const q = within(scoped(of.raw), 'r.at', edge);
      // The raw tables' covering indexes lead with (organization, project, time): naming the
      // projects makes a time range across all of them one short range per project instead of a
      // scan of the organization's whole history.
      if (!scopedByProject) {
        q.whereIn('r.project_id', db('projects').where('organization_id', params.organizationId).select('id'));
      }
      parts.push(
        of.rawSums(
          q
            .groupByRaw(rawKeys.join(', '))
            .select(...rawKeys.map((expr, i) => db.raw(`${expr} as ${db.client.wrapIdentifier(of.keys[i])}`))),
        ),
      );
    }
    const [first, ...rest] = parts;
    if (!first) return null;
    const union = rest.length > 0 ? first.unionAll(rest) : first;
    // Not `u`: the label queries joined to this one call the users table that.
    const summed = of.measures.map((m) => db.raw(`sum(parts.${m}) as ${m}`));
    return db
      .from(union.as('parts'))
      .groupBy(...of.keys.map((k) => `parts.${k}`))
      .select(...of.keys.map((k) => `parts.${k}`), ...summed);
  }

  /** The folder and project filters given, on a query over a table aliased `r`. */
  applyScope(db: Executor, query: Knex.QueryBuilder, params: FilterParams): void {
    if (params.projectId !== undefined) query.where('r.project_id', params.projectId);
    if (params.folderId !== undefined) {
      const subtree = this.folders.subtreeIds(db, params.organizationId, params.folderId);
      query.whereIn(
        'r.project_id',
        db('projects').where('organization_id', params.organizationId).whereIn('folder_id', subtree).select('id'),
      );
    }
  }
}

/** The person filters given: each level key with the id it must have. */
function personFilters(params: FilterParams): Array<[(typeof PERSON_KEYS)[number], string]> {
  const filters: Array<[(typeof PERSON_KEYS)[number], string]> = [];
  if (params.memberId !== undefined) filters.push(['member_id', params.memberId]);
  if (params.apiTokenId !== undefined) filters.push(['api_token_id', params.apiTokenId]);
  if (params.serviceAccountId !== undefined) filters.push(['service_account_id', params.serviceAccountId]);
  return filters;
}

/** The run sums of RUN_SUMS over the raw runs `r` of a grouped query. */
export const rawRunSums = (db: Executor, q: Knex.QueryBuilder): Knex.QueryBuilder =>
  q.select(
    db.raw('count(*) as run_count'),
    db.raw('count(r.cost_usd) as runs_with_cost'),
    db.raw('sum(r.input_tokens) as input_tokens'),
    db.raw('sum(r.output_tokens) as output_tokens'),
    db.raw(`sum(${costMicrosSql(db, 'r.cost_usd')}) as cost_micros`),
  );

/** Rows of `column` in [range.from, range.to), either end open when undefined. */
export function within(q: Knex.QueryBuilder, column: string, range: PeriodRange): Knex.QueryBuilder {
  if (range.from !== undefined) q.where(column, '>=', range.from);
  if (range.to !== undefined) q.where(column, '<', range.to);
  return q;
}
