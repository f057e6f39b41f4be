import type { Executor } from '../db/unit-of-work.js';
import { type InitiatedBy, INITIATOR_KINDS, type InitiatorType } from './initiators.js';
import type { RunLine } from './run-line.js';
import type { Principal, SessionActivity } from './records.js';
import type { UsageStore } from './store.js';

/** A problem with an ingest file; the message names the line. Its transaction is rolled back: nothing is written. */
export class IngestError extends Error {}

/**
 * A session as the file describes it so far, with the line that named it first and the initiator
 * that line names (resolved into `openedBy` before the session is stored).
 */
export type TalliedSession = SessionActivity & { line: number; initiatedBy: InitiatedBy | undefined };

/**
 * What an ingest file says about each session: its project (one per session: a run that puts
 * it in another is an IngestError), its first and latest run, its run count, and the title of
 * its latest titled run.
 */
export class SessionTally {
  private readonly sessions = new Map<string, TalliedSession>();
  /** Sessions first seen since the last `takeNew`. */
  private fresh: TalliedSession[] = [];

  get size(): number {
    return this.sessions.size;
  }

  add(run: RunLine, line: number): void {
    const seen = this.sessions.get(run.sessionId);
    if (!seen) {
      const session: TalliedSession = {
        id: run.sessionId,
        projectId: run.projectId,
        provider: run.provider,
        roleId: run.roleId,
        model: run.model,
        openedBy: null,
        initiatedBy: run.initiatedBy,
        title: run.title,
        firstAt: run.at,
        lastAt: run.at,
        runs: 1,
        line,
      };
      this.sessions.set(run.sessionId, session);
      this.fresh.push(session);
      return;
    }
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

  /** The sessions first seen since the last call. */
  takeNew(): TalliedSession[] {
    const fresh = this.fresh;
    this.fresh = [];
    return fresh;
  }

  all(): TalliedSession[] {
    return [...this.sessions.values()];
  }
}

/**
 * The projects an ingest file names, each checked to belong to the organization once, before
 * the first run that names it is written.
 */
export class ProjectCheck {
  private readonly known = new Set<string>();
  /** Projects named since the last `verify`, with the first line naming each. */
  private pending = new Map<string, number>();

  constructor(
    private readonly usage: UsageStore,
    private readonly db: Executor,
    private readonly organizationId: string,
  ) {}

  add(projectId: string, line: number): void {
    if (!this.known.has(projectId) && !this.pending.has(projectId)) this.pending.set(projectId, line);
  }

  /** Throws an IngestError naming the first line of a project outside the organization. */
  async verify(): Promise<void> {
    if (this.pending.size === 0) return;
    const found = await this.usage.projectIdsInOrg(this.db, this.organizationId, [...this.pending.keys()]);
    for (const [projectId, line] of this.pending) {
      if (!found.has(projectId)) throw new IngestError(`line ${line}: no project ${projectId} in this organization`);
      this.known.add(projectId);
    }
    this.pending = new Map();
  }
}

/**
 * The initiators an ingest file names, each resolved to a principal of the organization once
 * (INITIATOR_KINDS), before the first run that names it is written: a name the organization does
 * not know, or a kind not accepted yet, is an IngestError naming the first line that gave it.
 */
export class InitiatorCheck {
  private readonly known = new Map<string, Principal>();
  /** Names per kind given since the last `resolve`, with the first line giving each. */
  private pending = new Map<InitiatorType, Map<string, number>>();

  constructor(
    private readonly db: Executor,
    private readonly organizationId: string,
  ) {}

  add(initiator: InitiatedBy | undefined, line: number): void {
    if (!initiator) return;
    const kind = INITIATOR_KINDS[initiator.type];
    const name = initiator[kind.field]!;
    if (this.known.has(keyOf(initiator.type, name))) return;
    let names = this.pending.get(initiator.type);
    if (!names) {
      names = new Map();
      this.pending.set(initiator.type, names);
    }
    if (!names.has(name)) names.set(name, line);
  }

  /** Resolves the names given since the last call; throws for the first one the organization lacks. */
  async resolve(): Promise<void> {
    for (const [type, names] of this.pending) {
      const kind = INITIATOR_KINDS[type];
      const found = await kind.resolve!(this.db, this.organizationId, [...names.keys()]);
      for (const [name, line] of names) {
        const principal = found.get(name);
        if (!principal) {
          throw new IngestError(`line ${line}: unknown initiator: no ${kind.describe(name)} in this organization`);
        }
        this.known.set(keyOf(type, name), principal);
      }
    }
    this.pending = new Map();
  }

  /** The principal a resolved initiator names; null for none. */
  principal(initiator: InitiatedBy | undefined): Principal | null {
    if (!initiator) return null;
    return this.known.get(keyOf(initiator.type, initiator[INITIATOR_KINDS[initiator.type].field]!)) ?? null;
  }
}

const keyOf = (type: InitiatorType, name: string) => `${type}\n${name}`;
