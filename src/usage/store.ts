import { type BulkColumns, prepareInsert } from '../db/bulk-insert.js';
import { isPostgres } from '../db/connect.js';
import type { Knex } from 'knex';
import type { Executor } from '../db/unit-of-work.js';
import type { FolderTreeStore } from '../folder-tree/store.js';
import { costMicrosSql } from './cost-micros.js';
import {
  type AgentKeys,
  FACT_LEVELS,
  FACT_SUMS,
  levelFor,
  RUN_LEVELS,
  RUN_SUMS,
  type RollupLevel,
  SESSION_KEYS,
} from './rollup-levels.js';
import { type PeriodRange, splitWindow } from './window-split.js';

export interface RunRecord {
  id: string;
  organization_id: string;
  project_id: string;
  session_id: string;
  at: string;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
}

/** One fact of a run, with its run's organization, project and time (the breakdown reads facts alone). */
export interface FactRecord {
  run_id: string;
  ordinal: number;
  organization_id: string;
  project_id: string;
  at: string;
  kind: string;
  capability_id: string | null;
  quantity: number;
  unit: string;
  cost_usd: number | null;
}

/** The filters the report and the breakdown share: a window and, optionally, some projects. */
export interface UsageFilter {
  from?: string | undefined;
  to?: string | undefined;
  /** Only projects in this folder or below it. */
  folderId?: string | undefined;
  /** Only this project. */
  projectId?: string | undefined;
}

/** The parameters of the usage reads: the organization and the filter, each read prepared per filter present. */
export type FilterParams = UsageFilter & { organizationId: string };

/** The keys of the daily run rollup a read may sum by. */
export type RunRollupKey = 'project_id' | 'day' | 'provider' | 'role_id' | 'model';

/** Each rollup key as a raw run `r` gives it: its own column, its UTC day, or its session's (`s`). */
const RAW_RUN_KEY: Record<RunRollupKey, string> = {
  project_id: 'r.project_id',
  day: 'substr(r.at, 1, 10)',
  provider: 's.provider',
  role_id: 's.role_id',
  model: 's.model',
};

/** Sums of facts; costs in whole micro-dollars (cost-micros.ts), counted with the facts that had one. */
export interface FactSumRecord {
  fact_count: number | string;
  facts_with_cost: number | string;
  quantity: number | string | null;
  cost_micros: number | string | null;
}

export interface FactKindSumRecord extends FactSumRecord {
  kind: string;
}

export interface CapabilitySumRecord extends FactSumRecord {
  capability_id: string;
  label: string | null;
}

/** A stored session: its organization and project, and its agent keys. */
export type StoredSession = AgentKeys & { organization_id: string; project_id: string };

/** What a batch of runs does to one agent session. */
export interface SessionActivity {
  id: string;
  projectId: string;
  provider: string;
  roleId: string;
  model: string;
  title: string | null | undefined;
  firstAt: string;
  lastAt: string;
  runs: number;
}

export interface UsageRowRecord {
  project_id: string;
  project_name: string;
  folder_id: string | null;
  run_count: number | string;
  runs_with_cost: number | string;
  input_tokens: number | string | null;
  output_tokens: number | string | null;
  /** Whole micro-dollars (cost-micros.ts). */
  cost_micros: number | string | null;
}

/**
 * Rows per INSERT. knex writes a multi-row insert on SQLite as a compound SELECT, which SQLite
 * caps at 500 terms; 500 rows of eleven columns is also well under both engines' bound-parameter
 * limits.
 */
const INSERT_CHUNK = 500;
/** Rows per bulk insert of runs or facts: a batch's text stays small beside the next batch read. */
const BULK_CHUNK = 5000;

const RUN_COLUMNS: BulkColumns = {
  id: 'text',
  organization_id: 'text',
  project_id: 'text',
  session_id: 'text',
  at: 'text',
  input_tokens: 'bigint',
  output_tokens: 'bigint',
  cost_usd: 'double precision',
} satisfies Record<keyof RunRecord, string>;

const FACT_COLUMNS: BulkColumns = {
  run_id: 'text',
  ordinal: 'integer',
  organization_id: 'text',
  project_id: 'text',
  at: 'text',
  kind: 'text',
  capability_id: 'text',
  quantity: 'bigint',
  unit: 'text',
  cost_usd: 'double precision',
} satisfies Record<keyof FactRecord, string>;

/** SQLite's page cache during a bulk write, in KiB (as a negative cache_size): 256 MiB at most. */
const BULK_WRITE_CACHE_KIB = -262_144;
/** Ids per `IN (…)` lookup. */
const LOOKUP_CHUNK = 5000;

/** Runs and the sessions they belong to; the usage report's aggregation. */
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

  /** Sessions that already exist among these ids: the organization and project they belong to, their agent keys. */
  async existingSessions(db: Executor, ids: string[]): Promise<Map<string, StoredSession>> {
    const found = new Map<string, StoredSession>();
    for (const chunk of chunks(ids, LOOKUP_CHUNK)) {
      const rows = await db('agent_sessions')
        .whereIn('id', chunk)
        .select<Array<StoredSession & { id: string }>>('id', 'organization_id', 'project_id', ...SESSION_KEYS);
      for (const { id, ...session } of rows) found.set(id, session);
    }
    return found;
  }

  /**
   * Runs a bulk write with room for it in SQLite's page cache: an ingest inserts into the runs
   * table and five indexes, two of them (session, project) in no useful order, and with the
   * default 2 MB cache most inserts spill a page to the WAL and read it back. The cache is per
   * connection and only grows as pages are used; it is set back afterwards. PostgreSQL sizes its
   * shared buffers itself.
   */
  async withBulkWriteCache<T>(trx: Executor, write: () => Promise<T>): Promise<T> {
    if (isPostgres(trx)) return write();
    const [current] = (await trx.raw('pragma cache_size')) as { cache_size: number }[];
    const before = current?.cache_size ?? -2000;
    await trx.raw(`pragma cache_size = ${BULK_WRITE_CACHE_KIB}`);
    try {
      return await write();
    } finally {
      await trx.raw(`pragma cache_size = ${Number(before)}`);
    }
  }

  /**
   * A batch of runs and their facts, encoded now and written when the returned function is called
   * (runs first: every fact refers to its run).
   */
  prepareBatch(trx: Executor, runs: RunRecord[], facts: FactRecord[]): () => Promise<void> {
    const writes = [
      ...[...chunks(runs, BULK_CHUNK)].map((chunk) => prepareInsert(trx, 'runs', RUN_COLUMNS, chunk)),
      ...[...chunks(facts, BULK_CHUNK)].map((chunk) => prepareInsert(trx, 'run_facts', FACT_COLUMNS, chunk)),
    ];
    return async () => {
      for (const write of writes) await write();
    };
  }

  /**
   * Creates sessions an ingest sees for the first time, before their first runs are written
   * (every run refers to its session). They start empty — no runs, no title — at their first
   * run's time, and `widenSessions` gives them what the whole file says. Answers the ids another
   * transaction stored first (a concurrent ingest naming the same new session), left as they are.
   */
  async insertSessions(trx: Executor, organizationId: string, sessions: SessionActivity[]): Promise<string[]> {
    const takenFirst: string[] = [];
    for (const chunk of chunks(sessions, INSERT_CHUNK)) {
      const inserted: { id: string }[] = await trx('agent_sessions')
        .insert(
          chunk.map((s) => ({
            id: s.id,
            organization_id: organizationId,
            project_id: s.projectId,
            provider: s.provider,
            role_id: s.roleId,
            model: s.model,
            title: null,
            run_count: 0,
            created_at: s.firstAt,
            updated_at: s.lastAt,
            archived_at: null,
          })),
        )
        .onConflict('id')
        .ignore()
        .returning('id');
      const ids = new Set(inserted.map((row) => row.id));
      for (const s of chunk) if (!ids.has(s.id)) takenFirst.push(s.id);
    }
    return takenFirst;
  }

  /**
   * Widens each session by what an ingest said about it, in one statement per 5,000 sessions:
   * its earliest run sets createdAt, its latest updatedAt, runCount counts every run, and a title
   * given by its latest titled run replaces the stored one.
   */
  async widenSessions(trx: Executor, sessions: SessionActivity[]): Promise<void> {
    const sql = isPostgres(trx)
      ? 'update agent_sessions s set run_count = s.run_count + v.runs, created_at = least(s.created_at, v.first_at), ' +
        'updated_at = greatest(s.updated_at, v.last_at), ' +
        'title = case when v.title_given then v.title else s.title end ' +
        'from json_to_recordset(?::json) as v(id text, runs bigint, first_at text, last_at text, title text, ' +
        'title_given boolean) where s.id = v.id'
      : 'update agent_sessions set run_count = agent_sessions.run_count + v.runs, ' +
        'created_at = min(agent_sessions.created_at, v.first_at), ' +
        'updated_at = max(agent_sessions.updated_at, v.last_at), ' +
        'title = iif(v.title_given, v.title, agent_sessions.title) ' +
        "from (select value ->> 'id' as id, value ->> 'runs' as runs, value ->> 'first_at' as first_at, " +
        "value ->> 'last_at' as last_at, value ->> 'title' as title, value ->> 'title_given' as title_given " +
        'from json_each(?)) as v where agent_sessions.id = v.id';
    for (const chunk of chunks(sessions, LOOKUP_CHUNK)) {
      const rows = chunk.map((s) => ({
        id: s.id,
        runs: s.runs,
        first_at: s.firstAt,
        last_at: s.lastAt,
        title: s.title ?? null,
        title_given: s.title !== undefined,
      }));
      await trx.raw(sql, [JSON.stringify(rows)]);
    }
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
   * series groups by day and by what a run's session names), with the measures of RunSumRecord;
   * null when the window is empty.
   */
  runSums(db: Executor, params: FilterParams, keys: RunRollupKey[]): Knex.QueryBuilder | null {
    return this.windowSums(db, params, {
      levels: RUN_LEVELS,
      raw: 'runs',
      keys,
      rawKey: (key) => RAW_RUN_KEY[key as RunRollupKey],
      joinSessions: keys.some((key) => RAW_RUN_KEY[key].startsWith('s.')),
      measures: RUN_SUMS,
      rawSums: (q) =>
        q.select(
          db.raw('count(*) as run_count'),
          db.raw('count(r.cost_usd) as runs_with_cost'),
          db.raw('sum(r.input_tokens) as input_tokens'),
          db.raw('sum(r.output_tokens) as output_tokens'),
          db.raw(`sum(${costMicrosSql(db, 'r.cost_usd')}) as cost_micros`),
        ),
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
      /** A key's expression over the raw row `r` (and its session `s`), when not the column itself. */
      rawKey?: (key: string) => string;
      joinSessions?: boolean;
      rawSums: (q: Knex.QueryBuilder) => Knex.QueryBuilder;
    },
  ): Knex.QueryBuilder | null {
    const scopedByProject = params.projectId !== undefined || params.folderId !== undefined;
    const needed = [...of.keys, ...Object.keys(of.only ?? {}), ...(scopedByProject ? ['project_id'] : [])];
    const monthly = levelFor(of.levels, 'month', needed);
    const daily = levelFor(of.levels, 'day', needed)!;
    const split = splitWindow(params.from, params.to, monthly !== null);
    const parts: Knex.QueryBuilder[] = [];
    const scoped = (table: string) => {
      const q = db(`${table} as r`).where('r.organization_id', params.organizationId);
      if (of.only) for (const [column, value] of Object.entries(of.only)) q.where(`r.${column}`, value);
      this.applyScope(db, q, params);
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
      if (of.joinSessions) q.join('agent_sessions as s', 's.id', 'r.session_id');
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
    const summed = of.measures.map((m) => db.raw(`sum(u.${m}) as ${m}`));
    return db
      .from(union.as('u'))
      .groupBy(...of.keys.map((k) => `u.${k}`))
      .select(...of.keys.map((k) => `u.${k}`), ...summed);
  }

  /** The folder and project filters given, on a query over a table aliased `r`. */
  private applyScope(db: Executor, query: Knex.QueryBuilder, params: FilterParams): void {
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

/** Rows of `column` in [range.from, range.to), either end open when undefined. */
function within(q: Knex.QueryBuilder, column: string, range: PeriodRange): Knex.QueryBuilder {
  if (range.from !== undefined) q.where(column, '>=', range.from);
  if (range.to !== undefined) q.where(column, '<', range.to);
  return q;
}

function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
