import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/unit-of-work.js';
import type { GrantRole } from '../grants/roles.js';
import { shownName } from '../users/shown-profile.js';

export type AccessRequestStatus = 'pending' | 'approved' | 'denied' | 'expired' | 'withdrawn';

/** An access request joined to its project, organization and the people named in it. */
export interface AccessRequestRecord {
  id: string;
  organization_id: string;
  organization_slug: string;
  project_id: string;
  project_name: string;
  requester_id: string;
  requester_name: string;
  requester_im_open_id: string;
  level: GrantRole;
  reason: string;
  status: AccessRequestStatus;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  decided_by: string | null;
  decider_name: string | null;
  decider_im_open_id: string | null;
  granted_level: GrantRole | null;
}

/** The most of one person's requests `/api/me/access-requests` lists. */
export const MY_REQUESTS_LIMIT = 200;

/** Access requests: a member's request for a grant on a project, and its decision. */
export class AccessRequestStore {
  /** Requests with everything their answer shows; names as the request's organization shows them. */
  private query(db: Executor) {
    return db('access_requests as r')
      .join('projects as p', 'p.id', 'r.project_id')
      .join('organizations as o', 'o.id', 'r.organization_id')
      .join('users as u', 'u.id', 'r.requester_id')
      .leftJoin('memberships as m', (on) =>
        on.on('m.user_id', 'r.requester_id').andOn('m.organization_id', 'r.organization_id'),
      )
      .leftJoin('users as d', 'd.id', 'r.decided_by')
      .leftJoin('memberships as dm', (on) =>
        on.on('dm.user_id', 'r.decided_by').andOn('dm.organization_id', 'r.organization_id'),
      )
      .select<AccessRequestRecord[]>(
        'r.id',
        'r.organization_id',
        'o.slug as organization_slug',
        'r.project_id',
        'p.name as project_name',
        'r.requester_id',
        shownName(db, { user: 'u', membership: 'm' }, 'requester_name'),
        'u.im_open_id as requester_im_open_id',
        'r.level',
        'r.reason',
        'r.status',
        'r.created_at',
        'r.expires_at',
        'r.decided_at',
        'r.decided_by',
        // Null without a decider: every column it reads is null then.
        shownName(db, { user: 'd', membership: 'dm' }, 'decider_name'),
        'd.im_open_id as decider_im_open_id',
        'r.granted_level',
      );
  }

  async find(db: Executor, organizationId: string, projectId: string, id: string) {
    return this.query(db)
      .where({ 'r.id': id, 'r.organization_id': organizationId, 'r.project_id': projectId })
      .first<AccessRequestRecord | undefined>();
  }

  /** Holds the request's row until the transaction ends, so two decisions are ordered. */
  async lock(trx: Executor, id: string): Promise<void> {
    await trx('access_requests').where({ id }).forUpdate().first('id');
  }

  /** The project's requests still pending at `now`, oldest first. */
  async pendingOfProject(db: Executor, projectId: string, now: string): Promise<AccessRequestRecord[]> {
    return this.query(db)
      .where({ 'r.project_id': projectId, 'r.status': 'pending' })
      .where('r.expires_at', '>', now)
      .orderBy([{ column: 'r.created_at' }, { column: 'r.id' }]);
  }

  /** One person's requests for a project, newest first. */
  async ofRequesterOnProject(db: Executor, requesterId: string, projectId: string): Promise<AccessRequestRecord[]> {
    return this.query(db)
      .where({ 'r.requester_id': requesterId, 'r.project_id': projectId })
      .orderBy([
        { column: 'r.created_at', order: 'desc' },
        { column: 'r.id', order: 'asc' },
      ]);
  }

  /** One person's requests in the organizations they are an active member of, newest first. */
  async ofRequester(db: Executor, requesterId: string): Promise<AccessRequestRecord[]> {
    return this.query(db)
      .where({ 'r.requester_id': requesterId })
      .whereNull('m.revoked_at')
      .whereNotNull('m.id')
      .orderBy([
        { column: 'r.created_at', order: 'desc' },
        { column: 'r.id', order: 'asc' },
      ])
      .limit(MY_REQUESTS_LIMIT);
  }

  /** A pending request past its expiry becomes `expired`, so the person may ask again. */
  async expireDue(trx: Executor, projectId: string, requesterId: string, now: string): Promise<void> {
    await trx('access_requests')
      .where({ project_id: projectId, requester_id: requesterId, status: 'pending' })
      .where('expires_at', '<=', now)
      .update({ status: 'expired' });
  }

  /** Whether the person has a request for the project still pending at `now`. */
  async hasPending(trx: Executor, projectId: string, requesterId: string): Promise<boolean> {
    const row = await trx('access_requests')
      .where({ project_id: projectId, requester_id: requesterId, status: 'pending' })
      .first('id');
    return row !== undefined;
  }

  async insert(
    trx: Executor,
    input: { organizationId: string; projectId: string; requesterId: string; level: GrantRole; reason: string },
    at: string,
    expiresAt: string,
  ): Promise<string> {
    const id = randomUUID();
    await trx('access_requests').insert({
      id,
      organization_id: input.organizationId,
      project_id: input.projectId,
      requester_id: input.requesterId,
      level: input.level,
      reason: input.reason,
      status: 'pending',
      created_at: at,
      expires_at: expiresAt,
      decided_at: null,
      decided_by: null,
      granted_level: null,
    });
    return id;
  }

  /** Ends a pending request; false when it was no longer pending. */
  async decide(
    trx: Executor,
    id: string,
    decision: { status: AccessRequestStatus; at: string; by: string | null; grantedLevel: GrantRole | null },
  ): Promise<boolean> {
    const updated = await trx('access_requests').where({ id, status: 'pending' }).update({
      status: decision.status,
      decided_at: decision.at,
      decided_by: decision.by,
      granted_level: decision.grantedLevel,
    });
    return updated === 1;
  }
}
