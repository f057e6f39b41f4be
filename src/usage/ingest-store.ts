import { type BulkColumns, prepareInsert } from '../db/bulk-insert.js';
import { isPostgres } from '../db/connect.js';
import type { Executor } from '../db/unit-of-work.js';
import { chunks, type FactRecord, type RunRecord, type SessionActivity, type StoredSession } from './records.js';

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
  provider: 'text',
  role_id: 'text',
  model: 'text',
  initiator_type: 'text',
  initiator_id: 'text',
  member_id: 'text',
  service_account_id: 'text',
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
/** Ids per `IN (…)` lookup, and sessions per widening statement. */
const LOOKUP_CHUNK = 5000;

/** The ingest's writes: runs, their facts, and the sessions they start or widen. */
export class IngestStore {
  /** Sessions that already exist among these ids: the organization and project each belongs to. */
  async existingSessions(db: Executor, ids: string[]): Promise<Map<string, StoredSession>> {
    const found = new Map<string, StoredSession>();
    for (const chunk of chunks(ids, LOOKUP_CHUNK)) {
      const rows = await db('agent_sessions')
        .whereIn('id', chunk)
        .select<Array<StoredSession & { id: string }>>('id', 'organization_id', 'project_id');
      for (const { id, ...session } of rows) found.set(id, session);
    }
    return found;
  }

  /**
   * Runs a bulk write with room for it in SQLite's page cache: an ingest inserts into the runs
   * table and five indexes, two of them (session, project) in no useful order, and with the
   * default page cache size most inserts spill a page to the WAL and read it back. The cache is per
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
            initiator_type: s.openedBy?.type ?? null,
            initiator_id: s.openedBy?.id ?? null,
            member_id: s.openedBy?.memberId ?? null,
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
}
