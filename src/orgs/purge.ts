import fs from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import { recordHostEvent } from '../audit/host-trail.js';
import type { AuditActor } from '../audit/scope.js';
import type { Clock } from '../config/clock.js';
import { readSchemaGraph } from '../db/schema-graph.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import type { Logger } from '../log/logger.js';
import { type PurgeStep, purgePlan } from './purge-plan.js';
import type { OrganizationRecord, OrganizationStore } from './store.js';

/** What one purge removed: the organization as it was, and how many rows of each table. */
export interface PurgedOrganization {
  organization: Pick<OrganizationRecord, 'id' | 'slug' | 'name' | 'purge_at'>;
  rows: Record<string, number>;
}

/** The purge job's actor in the host's log. */
export const PURGE_JOB_ACTOR: AuditActor = { type: 'system', id: null, displayName: 'purge job' };

/** Organizations purged per run of the job, so one run stays short; the next run takes the rest. */
const PURGES_PER_RUN = 20;

/**
 * The end of an organization: every row of it in every table (src/orgs/purge-plan.ts, derived
 * from the schema) and its files (`<data>/workspaces/<organizationId>`), recorded in the host's
 * log (`host_audit_events`), as the organization's own log goes with it. Only an organization
 * being deleted is purged: by the job in `hub serve` once its `purgeAt` has passed, or by the
 * operator (`hub org purge`) before.
 *
 * One purge is one transaction that first locks the organization's row; on PostgreSQL the lock
 * is taken with SKIP LOCKED, so of several instances running the job at once one purges each
 * organization and the others pass it by. SQLite has one writer, and one `hub serve`.
 */
export class OrganizationPurge {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly orgs: OrganizationStore,
    private readonly workspacesDir: string,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** The job: purges the organizations whose `purgeAt` has passed; answers what it purged. */
  async purgeDue(actor: AuditActor = PURGE_JOB_ACTOR): Promise<PurgedOrganization[]> {
    const now = this.clock.now();
    const purged: PurgedOrganization[] = [];
    for (const org of await this.orgs.dueForPurge(this.uow.executor, now, PURGES_PER_RUN)) {
      const done = await this.purgeOne(org.id, actor, { dueBy: now });
      if (done) purged.push(done);
    }
    return purged;
  }

  /**
   * The operator's purge of one organization being deleted, before its `purgeAt`; undefined when
   * it is not being deleted (or another instance is purging it right now).
   */
  purgeNow(organizationId: string, actor: AuditActor): Promise<PurgedOrganization | undefined> {
    return this.purgeOne(organizationId, actor, {});
  }

  private async purgeOne(
    organizationId: string,
    actor: AuditActor,
    options: { dueBy?: Date },
  ): Promise<PurgedOrganization | undefined> {
    const purged = await this.uow.run(async (trx) => {
      const org = await lockForPurge(trx, organizationId);
      if (org?.status !== 'DELETING') return undefined;
      if (options.dueBy && (org.purge_at ?? '') > options.dueBy.toISOString()) return undefined;
      const rows: Record<string, number> = {};
      for (const step of purgePlan(await readSchemaGraph(trx))) {
        rows[step.table] = await rowsOf(trx, step, org.id).delete();
      }
      const result: PurgedOrganization = {
        organization: { id: org.id, slug: org.slug, name: org.name, purge_at: org.purge_at },
        rows,
      };
      await recordPurge(trx, actor, this.clock.now(), result);
      return result;
    });
    if (!purged) return undefined;
    // After the commit, so a purge rolled back keeps its files.
    await fs.rm(path.join(this.workspacesDir, organizationId), { recursive: true, force: true });
    this.logger.info(
      { organizationId, slug: purged.organization.slug, rows: purged.rows },
      'purged a deleted organization',
    );
    return purged;
  }
}

/** Locks the organization's row for its purge; another instance's lock skips it (PostgreSQL). */
async function lockForPurge(trx: Executor, organizationId: string): Promise<OrganizationRecord | undefined> {
  const query = trx<OrganizationRecord>('organizations')
    .where({ id: organizationId })
    .select('id', 'slug', 'name', 'status', 'purge_at', 'created_at');
  if (trx.client.config.client === 'pg') query.forUpdate().skipLocked();
  return (await query)[0];
}

/** The rows of a step's table that belong to the organization (see PurgeStep). */
function rowsOf(trx: Executor, step: PurgeStep, organizationId: string): Knex.QueryBuilder {
  const query = trx(step.table);
  if (step.table === 'organizations') return query.where('id', organizationId);
  if (!step.via) return query.where('organization_id', organizationId);
  return query.whereIn(step.via.column, rowsOf(trx, step.via.parent, organizationId).select(step.via.parentColumn));
}

const recordPurge = (trx: Executor, actor: AuditActor, at: Date, purged: PurgedOrganization): Promise<void> =>
  recordHostEvent(trx, {
    actor,
    at,
    action: 'organization.purge',
    target: { type: 'organization', id: purged.organization.id, label: purged.organization.name },
    details: { slug: purged.organization.slug, purgeAt: purged.organization.purge_at, rows: purged.rows },
  });
