import { recordChange } from '../audit/trail.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { badRequest, notFound } from '../errors/api-error.js';
import type { FolderStore } from '../folders/store.js';
import type { Schema } from '../api/types.js';
import { GROUPINGS, groupSums, labelled, type UsageGroupBy } from './groupings.js';
import { toUsageBreakdown, toUsageGroups, toUsageReport } from './projection.js';
import { IngestError, InitiatorCheck, ProjectCheck, SessionTally, type TalliedSession } from './ingest-tally.js';
import type { InitiatedBy } from './initiators.js';
import type { RunLine, UsageFact } from './run-line.js';
import { runsOfFile, type RunSource } from './run-source.js';
import type { IngestStore } from './ingest-store.js';
import type { FactRecord, Principal, RunRecord, UsageFilter, UsageGroupRecord } from './records.js';
import type { RollupStore } from './rollup-store.js';
import { RollupTally } from './rollup-tally.js';
import type { UsageStore } from './store.js';
import type { TeamSums } from './team-sums.js';
import { timeOrderedId } from '../shared/time-ordered-id.js';
import { WriteBehind } from './write-behind.js';

export interface IngestProgress {
  phase: 'checked' | 'written';
  lines: number;
}

/** What else an ingest does in its transaction once its runs are written (budget alerts). */
export type AfterIngest = (trx: Executor, organizationId: string) => Promise<void>;

/** The usage area's stores, one per job: the reads, the ingest's writes, the rollup levels. */
export interface UsageStores {
  reads: UsageStore;
  /** The reads by team. */
  teams: TeamSums;
  ingest: IngestStore;
  rollups: RollupStore;
}

export interface IngestResult {
  runs: number;
  sessions: number;
}

/** How often ingest reports progress, in lines. */
const PROGRESS_EVERY = 100_000;
/** Runs written per batch; the next batch is read while one is written. */
const WRITE_BATCH = 5_000;

/**
 * Usage: runs and their facts loaded from JSON Lines (written by the agent runtime in
 * production), the per-project report and the breakdown by fact kind and capability, both
 * aggregated in SQL.
 */
export class UsageService {
  private readonly usage: UsageStore;
  private readonly teams: TeamSums;
  private readonly ingestStore: IngestStore;
  private readonly rollups: RollupStore;

  constructor(
    private readonly uow: UnitOfWork,
    stores: UsageStores,
    private readonly folders: FolderStore,
    private readonly afterIngest: AfterIngest = async () => {},
  ) {
    this.usage = stores.reads;
    this.teams = stores.teams;
    this.ingestStore = stores.ingest;
    this.rollups = stores.rollups;
  }

  /**
   * Loads one run per line, in one pass and one transaction: each line is parsed and checked as
   * it is read, and the runs are written in batches while the next batch is read. A bad line —
   * or any failure — rolls the transaction back, so the database is as it was: nothing is
   * committed until every line has passed. (Checking the whole file in a pass of its own first
   * cost a quarter of the time of a good file.)
   *
   * Before a batch is written, the projects it names are checked, the initiators it names are
   * resolved to the organization's principals (each once per file), and the sessions it starts
   * are checked (an existing one must be this organization's and this project's) and created
   * empty; once the file has said everything about them, all its sessions are widened in bulk.
   */
  async ingest(
    organizationId: string,
    source: string | RunSource,
    onProgress: (p: IngestProgress) => void = () => {},
    progressEvery = PROGRESS_EVERY,
    inTransaction: (trx: Executor, result: IngestResult) => Promise<void> = async () => {},
  ): Promise<IngestResult> {
    const batchSize = Math.min(WRITE_BATCH, progressEvery);
    const runSource = typeof source === 'string' ? runsOfFile(source) : source;
    return this.uow.run((trx) =>
      this.ingestStore.withBulkWriteCache(trx, async () => {
        const sessions = new SessionTally();
        let existingSessions = 0;
        const projects = new ProjectCheck(this.usage, trx, organizationId);
        const initiators = new InitiatorCheck(trx, organizationId);
        let runs = 0;
        // What the file adds to the rollups, written once its runs are.
        const rollups = new RollupTally();
        let batch: RunRecord[] = [];
        // Each run's initiator as its line named it, attributed once the batch's are resolved.
        let initiatedBy: Array<InitiatedBy | undefined> = [];
        let facts: FactRecord[] = [];
        // Lines handed to a write, and lines whose write has finished (what progress reports).
        let queued = 0;
        let stored = 0;
        const storedUpTo = (lines: number) => {
          if (Math.floor(lines / progressEvery) > Math.floor(stored / progressEvery))
            onProgress({ phase: 'written', lines });
          stored = lines;
        };
        // Each batch is stored while the next one is read, parsed and encoded; its projects and
        // sessions are checked, and new sessions created, before its runs are written.
        const writes = new WriteBehind();
        const flush = async () => {
          await initiators.resolve();
          batch.forEach((record, i) => {
            attribute(record, initiators.principal(initiatedBy[i]));
            rollups.addRun(record);
          });
          const [write, before] = [this.ingestStore.prepareBatch(trx, batch, facts), queued];
          queued += batch.length;
          batch = [];
          initiatedBy = [];
          facts = [];
          await projects.verify();
          const met = sessions.takeNew();
          for (const session of met) session.openedBy = initiators.principal(session.initiatedBy);
          existingSessions += await this.startSessions(trx, organizationId, met);
          await writes.after(write);
          storedUpTo(before);
        };
        try {
          for await (const { run, line } of runSource) {
            runs += 1;
            sessions.add(run, line);
            projects.add(run.projectId, line);
            initiators.add(run.initiatedBy, line);
            const record = toRunRecord(organizationId, run);
            batch.push(record);
            initiatedBy.push(run.initiatedBy);
            const runFacts = (run.facts ?? []).map((fact, ordinal) => toFactRecord(record, ordinal, fact));
            for (const fact of runFacts) facts.push(fact);
            rollups.addFacts(record, runFacts);
            if (runs % progressEvery === 0) onProgress({ phase: 'checked', lines: runs });
            if (batch.length === batchSize) await flush();
          }
          await flush();
          await writes.drain();
          storedUpTo(queued);
        } finally {
          await writes.settle();
        }

        await this.ingestStore.widenSessions(trx, sessions.all());
        await this.rollups.add(trx, organizationId, rollups);
        if (runs > 0) await this.afterIngest(trx, organizationId);
        await recordChange(trx, {
          organizationId,
          target: { type: 'usage', id: null, label: null },
          before: null,
          after: { runs, sessions: sessions.size, newSessions: sessions.size - existingSessions },
        });
        const result = { runs, sessions: sessions.size };
        await inTransaction(trx, result);
        return result;
      }),
    );
  }

  /**
   * Recomputes every level of the organization's rollups from its raw runs and facts, in one transaction:
   * the repair for rollups that no longer match them.
   */
  async rebuildRollups(organizationId: string): Promise<void> {
    await this.uow.run(async (trx) => {
      await this.rollups.rebuild(trx, organizationId);
      await recordChange(trx, {
        organizationId,
        target: { type: 'usage', id: null, label: null },
        before: null,
        after: { rollupsRebuilt: true },
      });
    });
  }

  /**
   * Creates the sessions an ingest has just met for the first time, once each is known not to
   * exist elsewhere: a session already stored must be this organization's, in the same project.
   * A new session takes its first run's provider, role and model as its summary. Returns how many
   * of them already existed.
   */
  private async startSessions(trx: Executor, organizationId: string, met: TalliedSession[]): Promise<number> {
    const sessionsIn = async (sessions: TalliedSession[]) => {
      const found = await this.ingestStore.existingSessions(
        trx,
        sessions.map((s) => s.id),
      );
      for (const session of sessions) {
        const stored = found.get(session.id);
        if (stored && (stored.organization_id !== organizationId || stored.project_id !== session.projectId)) {
          throw new IngestError(`line ${session.line}: session ${session.id} already exists for another project`);
        }
      }
      return found;
    };
    const existing = await sessionsIn(met);
    const fresh = met.filter((s) => !existing.has(s.id));
    const takenFirst = new Set(await this.ingestStore.insertSessions(trx, organizationId, fresh));
    // A concurrent ingest that started one of them first must have started it in the same project.
    if (takenFirst.size > 0) await sessionsIn(fresh.filter((s) => takenFirst.has(s.id)));
    return existing.size + takenFirst.size;
  }

  /**
   * Per-project totals of runs in [from, to) — optionally only under a folder, only a member's —
   * and their sums; or, grouped by member, team or API token, per group (groupings.ts), with the
   * sums of the window's runs, each counted once, as totals.
   */
  async report(
    organizationId: string,
    query: { from?: string; to?: string; folderId?: string; groupBy?: UsageGroupBy; memberId?: string },
  ): Promise<Schema<'UsageReport'>> {
    const filter = this.filterOf(query);
    const db = this.uow.reader;
    const rows = await this.usage.usageByProject(db, organizationId, filter);
    if (rows.length === 0) await this.folderMustExist(organizationId, filter);
    const report = toUsageReport(filter.from, filter.to, rows);
    const groupBy = query.groupBy ?? 'project';
    if (groupBy === 'project') return report;
    const sums = groupSums(db, { usage: this.usage, teams: this.teams }, { organizationId, ...filter }, groupBy, false);
    const groups = sums ? ((await labelled(db, organizationId, groupBy, sums)) as UsageGroupRecord[]) : [];
    return {
      ...report,
      projects: [],
      groups: toUsageGroups(groups),
      overlapping: GROUPINGS[groupBy].overlapping,
    };
  }

  /**
   * The facts of runs in [from, to) — optionally only under a folder and/or of one project —
   * summed per fact kind and per external capability, in SQL, with the report's null-cost rule.
   */
  async breakdown(
    organizationId: string,
    query: { from?: string; to?: string; folderId?: string; projectId?: string },
  ): Promise<Schema<'UsageBreakdown'>> {
    const filter = this.filterOf(query);
    if (
      query.projectId !== undefined &&
      !(await this.usage.projectIdsInOrg(this.uow.executor, organizationId, [query.projectId])).has(query.projectId)
    ) {
      throw notFound('project_not_found', `No project ${query.projectId} in this organization.`);
    }
    const db = this.uow.reader;
    const [byKind, byCapability] = await Promise.all([
      this.usage.factsByKind(db, organizationId, filter),
      this.usage.factsByCapability(db, organizationId, filter),
    ]);
    if (byKind.length === 0) await this.folderMustExist(organizationId, filter);
    return toUsageBreakdown(filter.from, filter.to, byKind, byCapability);
  }

  /**
   * The window (normalized; 400 when reversed), the folder and the project, as the report and the
   * breakdown read them. The folder's subtree is walked inside their statements, archived folders
   * included (their projects' runs count).
   */
  filterOf(query: {
    from?: string;
    to?: string;
    folderId?: string;
    projectId?: string;
    memberId?: string;
  }): UsageFilter {
    const from = query.from === undefined ? undefined : new Date(query.from).toISOString();
    const to = query.to === undefined ? undefined : new Date(query.to).toISOString();
    if (from !== undefined && to !== undefined && from > to) {
      throw badRequest('`from` must not be later than `to`.', [
        { path: '/query/from', message: 'must not be later than to' },
      ]);
    }
    return { from, to, folderId: query.folderId, projectId: query.projectId, memberId: query.memberId };
  }

  /**
   * 404 for a folder the organization does not have. Asked only when an answer came back empty:
   * rows under a folder prove it exists, so a report with rows costs no second statement.
   */
  async folderMustExist(organizationId: string, filter: UsageFilter): Promise<void> {
    if (filter.folderId === undefined) return;
    if (!(await this.folders.exists(this.uow.executor, organizationId, filter.folderId))) {
      throw notFound('folder_not_found', `No folder ${filter.folderId} in this organization.`);
    }
  }
}

const toFactRecord = (run: RunRecord, ordinal: number, fact: UsageFact): FactRecord => ({
  run_id: run.id,
  ordinal,
  organization_id: run.organization_id,
  project_id: run.project_id,
  at: run.at,
  kind: fact.kind,
  capability_id: fact.capabilityId ?? null,
  quantity: fact.quantity,
  unit: fact.unit,
  cost_usd: fact.costUsd,
});

const toRunRecord = (organizationId: string, run: RunLine): RunRecord => ({
  id: timeOrderedId(),
  organization_id: organizationId,
  project_id: run.projectId,
  session_id: run.sessionId,
  provider: run.provider,
  role_id: run.roleId,
  model: run.model,
  // Attributed once the batch's initiators are resolved.
  initiator_type: null,
  initiator_id: null,
  member_id: null,
  service_account_id: null,
  at: run.at,
  input_tokens: run.inputTokens,
  output_tokens: run.outputTokens,
  cost_usd: run.costUsd,
});

/** Stores on the run who started it and the member accountable for it. */
function attribute(run: RunRecord, principal: Principal | null): void {
  if (!principal) return;
  run.initiator_type = principal.type;
  run.initiator_id = principal.id;
  run.member_id = principal.memberId;
  run.service_account_id = principal.serviceAccountId;
}
