import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { recordChange } from '../audit/trail.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { badRequest, notFound } from '../errors/api-error.js';
import type { FolderStore } from '../folders/store.js';
import type { Schema } from '../http/operation-types.js';
import { toUsageBreakdown, toUsageReport } from './mapper.js';
import { parseRunLine, type RunLine, type UsageFact } from './run-line.js';
import type { FactRecord, RunRecord, SessionActivity, UsageFilter, UsageStore } from './store.js';
import { timeOrderedId } from './time-ordered-id.js';
import { WriteBehind } from './write-behind.js';

/** A problem with an ingest file; the message names the line. Nothing has been written. */
export class IngestError extends Error {}

export interface IngestProgress {
  phase: 'checked' | 'written';
  lines: number;
}

export interface IngestResult {
  runs: number;
  sessions: number;
}

/** How often ingest reports progress, in lines. */
const PROGRESS_EVERY = 100_000;
/** Runs written per batch while streaming the file a second time. */
const WRITE_BATCH = 5_000;

/**
 * Usage: runs and their facts loaded from JSON Lines (written by the agent runtime in
 * production), the per-project report and the breakdown by fact kind and capability, both
 * aggregated in SQL.
 */
export class UsageService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly usage: UsageStore,
    private readonly folders: FolderStore,
  ) {}

  /**
   * Loads one run per line. Every line is checked before anything is written (first pass);
   * then all runs and their sessions are written in one transaction (second pass), so a bad
   * line or a failure half-way leaves the database as it was.
   */
  async ingest(
    organizationId: string,
    file: string,
    onProgress: (p: IngestProgress) => void = () => {},
    progressEvery = PROGRESS_EVERY,
  ): Promise<IngestResult> {
    const sessions = new Map<string, SessionActivity & { line: number }>();
    const projectLines = new Map<string, number>();
    let runs = 0;
    for await (const { run, line } of readRuns(file)) {
      runs += 1;
      if (!projectLines.has(run.projectId)) projectLines.set(run.projectId, line);
      const seen = sessions.get(run.sessionId);
      if (!seen) {
        sessions.set(run.sessionId, {
          id: run.sessionId,
          projectId: run.projectId,
          provider: run.provider,
          roleId: run.roleId,
          model: run.model,
          title: run.title,
          firstAt: run.at,
          lastAt: run.at,
          runs: 1,
          line,
        });
      } else {
        if (seen.projectId !== run.projectId)
          throw new IngestError(
            `line ${line}: session ${run.sessionId} belongs to project ${seen.projectId} (line ${seen.line}), not ` +
              `${run.projectId}`,
          );
        seen.runs += 1;
        if (run.at < seen.firstAt) seen.firstAt = run.at;
        if (run.at >= seen.lastAt) {
          seen.lastAt = run.at;
          if (run.title !== undefined) seen.title = run.title;
        }
      }
      if (runs % progressEvery === 0) onProgress({ phase: 'checked', lines: runs });
    }

    const known = await this.usage.projectIdsInOrg(this.uow.executor, organizationId, [...projectLines.keys()]);
    for (const [projectId, line] of projectLines) {
      if (!known.has(projectId)) throw new IngestError(`line ${line}: no project ${projectId} in this organization`);
    }
    const existing = await this.usage.existingSessions(this.uow.executor, [...sessions.keys()]);
    for (const [id, found] of existing) {
      const session = sessions.get(id)!;
      if (found.organization_id !== organizationId || found.project_id !== session.projectId) {
        throw new IngestError(`line ${session.line}: session ${id} already exists for another project`);
      }
    }

    const batchSize = Math.min(WRITE_BATCH, progressEvery);
    await this.uow.run((trx) =>
      this.usage.withBulkWriteCache(trx, async () => {
        // Sessions first: every run row refers to its session.
        await this.usage.recordSessionActivity(trx, organizationId, [...sessions.values()], new Set(existing.keys()));
        let batch: RunRecord[] = [];
        let facts: FactRecord[] = [];
        // Lines handed to a write, and lines whose write has finished (what progress reports).
        let queued = 0;
        let stored = 0;
        const storedUpTo = (lines: number) => {
          if (Math.floor(lines / progressEvery) > Math.floor(stored / progressEvery))
            onProgress({ phase: 'written', lines });
          stored = lines;
        };
        // Runs first, then their facts: every fact refers to its run. Each batch is stored while
        // the next one is read and parsed.
        const writes = new WriteBehind();
        const flush = async () => {
          const [runRows, factRows, before] = [batch, facts, queued];
          queued += batch.length;
          batch = [];
          facts = [];
          await writes.after(async () => {
            await this.usage.insertRuns(trx, runRows);
            await this.usage.insertFacts(trx, factRows);
          });
          storedUpTo(before);
        };
        try {
          for await (const { run } of readRuns(file)) {
            const record = toRunRecord(organizationId, run);
            batch.push(record);
            for (const [ordinal, fact] of (run.facts ?? []).entries()) facts.push(toFactRecord(record, ordinal, fact));
            if (batch.length === batchSize) await flush();
          }
          await flush();
          await writes.drain();
          storedUpTo(queued);
        } finally {
          await writes.settle();
        }
        await recordChange(trx, {
          organizationId,
          target: { type: 'usage', id: null },
          before: null,
          after: { runs, sessions: sessions.size, newSessions: sessions.size - existing.size },
        });
      }),
    );
    return { runs, sessions: sessions.size };
  }

  /** Per-project totals of runs in [from, to) — optionally only under a folder — and their sums. */
  async report(
    organizationId: string,
    query: { from?: string; to?: string; folderId?: string },
  ): Promise<Schema<'UsageReport'>> {
    const filter = await this.filterOf(organizationId, query);
    return toUsageReport(
      filter.from,
      filter.to,
      await this.usage.usageByProject(this.uow.executor, organizationId, filter),
    );
  }

  /**
   * The facts of runs in [from, to) — optionally only under a folder and/or of one project —
   * summed per fact kind and per external capability, in SQL, with the report's null-cost rule.
   */
  async breakdown(
    organizationId: string,
    query: { from?: string; to?: string; folderId?: string; projectId?: string },
  ): Promise<Schema<'UsageBreakdown'>> {
    const filter = await this.filterOf(organizationId, query);
    if (
      query.projectId !== undefined &&
      !(await this.usage.projectIdsInOrg(this.uow.executor, organizationId, [query.projectId])).has(query.projectId)
    ) {
      throw notFound('project_not_found', `No project ${query.projectId} in this organization.`);
    }
    const db = this.uow.executor;
    const [byKind, byCapability] = await Promise.all([
      this.usage.factsByKind(db, organizationId, filter),
      this.usage.factsByCapability(db, organizationId, filter),
    ]);
    return toUsageBreakdown(filter.from, filter.to, byKind, byCapability);
  }

  /**
   * The window (normalized; 400 when reversed), the folder's subtree and the project, as the report and the breakdown
   * read them.
   */
  private async filterOf(
    organizationId: string,
    query: { from?: string; to?: string; folderId?: string; projectId?: string },
  ): Promise<UsageFilter> {
    const from = query.from === undefined ? undefined : new Date(query.from).toISOString();
    const to = query.to === undefined ? undefined : new Date(query.to).toISOString();
    if (from !== undefined && to !== undefined && from > to) {
      throw badRequest('`from` must not be later than `to`.', [
        { path: '/query/from', message: 'must not be later than to' },
      ]);
    }
    const folderIds = query.folderId === undefined ? undefined : await this.subtree(organizationId, query.folderId);
    return { from, to, folderIds, projectId: query.projectId };
  }

  /** The folder and every folder below it, archived ones included (their projects' runs count). */
  private async subtree(organizationId: string, folderId: string): Promise<string[]> {
    const parents = await this.folders.parentMap(this.uow.executor, organizationId);
    if (!parents.has(folderId)) throw notFound('folder_not_found', `No folder ${folderId} in this organization.`);
    const children = new Map<string, string[]>();
    for (const [id, parent] of parents) if (parent) children.set(parent, [...(children.get(parent) ?? []), id]);
    const out: string[] = [];
    for (const queue = [folderId]; queue.length; ) {
      const id = queue.pop()!;
      out.push(id);
      queue.push(...(children.get(id) ?? []));
    }
    return out;
  }
}

async function* readRuns(file: string): AsyncGenerator<{ run: RunLine; line: number }> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    try {
      yield { run: parseRunLine(text), line };
    } catch (err) {
      if (err instanceof IngestError) throw err;
      throw new IngestError(`line ${line}: ${(err as Error).message}`);
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
  at: run.at,
  input_tokens: run.inputTokens,
  output_tokens: run.outputTokens,
  cost_usd: run.costUsd,
});
