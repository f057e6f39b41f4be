import type { Schema } from '../api/types.js';
import { recordChange } from '../audit/trail.js';
import { DAY_MS, type Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { conflict, forbidden, notFound } from '../errors/api-error.js';
import { grantAtLeast, strongestGrant, type GrantRole } from '../grants/roles.js';
import type { GrantStore } from '../grants/store.js';
import type { OrgAccessResolver } from '../orgs/org-access-resolver.js';
import type { OrgAccess } from '../orgs/store.js';
import type { ProjectAccessRecord } from '../projects/access-projection.js';
import { requireLive, type ProjectRecord } from '../projects/project.js';
import type { ProjectStore } from '../projects/store.js';
import type { TeamAccessService } from '../projects/team-access.js';
import { byCodeUnits, byName } from '../shared/order.js';
import { type AccessRequestAt, accessRequestProjection } from './projection.js';
import type { AccessRequestRecord, AccessRequestStatus, AccessRequestStore } from './store.js';

/** A pending request expires this long after it was made. */
export const ACCESS_REQUEST_TTL_MS = 14 * DAY_MS;

/** Who asks or decides, in which organization. */
export interface AccessRequestCaller {
  access: OrgAccess;
  userId: string;
}

/** Who can grant access to a project, and whether the caller is one of them. */
export interface Approvers {
  people: ProjectAccessRecord[];
  are: 'manageHolders' | 'orgAdmins';
}

type AccessRequest = Schema<'AccessRequest'>;

const requestNotFound = (id: string) =>
  notFound('access_request_not_found', `No access request "${id}" for this project.`);
const notPending = (status: string) =>
  conflict('access_request_not_pending', `This access request is ${status}; only a pending request can change.`);

/**
 * Access requests. A member asks for a level on a project; the project's approvers — its MANAGE
 * holders, or the org admins when it has none, so no project is left without someone who can
 * answer — approve (writing the grant) or deny; the requester may withdraw. Pending requests
 * expire after 14 days. Each step is one audit event whose target is the request, so webhooks
 * hear of each.
 */
export class AccessRequestService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: AccessRequestStore,
    private readonly projects: ProjectStore,
    private readonly grants: GrantStore,
    private readonly teamAccess: TeamAccessService,
    private readonly orgAccess: OrgAccessResolver,
    private readonly clock: Clock,
  ) {}

  /** The project's approvers: MANAGE holders, else the org admins; by name as people read it. */
  async approversOf(project: ProjectRecord, db: Executor = this.uow.executor): Promise<Approvers> {
    const access = await this.teamAccess.whoCanOpen(project, db);
    const holders = access.filter((entry) => entry.level === 'MANAGE');
    const people =
      holders.length > 0 ? holders : access.filter((entry) => entry.via.some((v) => v.type === 'orgAdmin'));
    people.sort((a, b) => byName(a.display_name, b.display_name) || byCodeUnits(a.im_open_id, b.im_open_id));
    return { people, are: holders.length > 0 ? 'manageHolders' : 'orgAdmins' };
  }

  /**
   * The project's approvers and the requests the caller may see: every pending one for an
   * approver, their own otherwise.
   */
  async list(caller: AccessRequestCaller, projectId: string) {
    const project = await this.project(this.uow.executor, caller, projectId);
    const approvers = await this.approversOf(project);
    const canDecide = approvers.people.some((person) => person.user_id === caller.userId);
    const now = this.clock.now().toISOString();
    const rows = canDecide
      ? await this.store.pendingOfProject(this.uow.executor, project.id, now)
      : await this.store.ofRequesterOnProject(this.uow.executor, caller.userId, project.id);
    return { requests: rows.map((row) => this.toApi(row, now)), approvers, canDecide };
  }

  /** The person's own requests in their organizations. */
  async listMine(userId: string): Promise<AccessRequest[]> {
    const now = this.clock.now().toISOString();
    return (await this.store.ofRequester(this.uow.executor, userId)).map((row) => this.toApi(row, now));
  }

  async create(
    caller: AccessRequestCaller,
    projectId: string,
    input: { level: GrantRole; reason: string },
  ): Promise<AccessRequest> {
    const now = this.clock.now();
    const at = now.toISOString();
    const organizationId = caller.access.organization.id;
    return this.uow.run(async (trx) => {
      const project = await this.project(trx, caller, projectId);
      requireLive(project);
      const held = await this.grantOf(trx, caller, project);
      if (grantAtLeast(held, input.level)) {
        throw conflict(
          'access_already_held',
          `You already hold ${held} on this project, which includes ${input.level}.`,
        );
      }
      await this.store.expireDue(trx, project.id, caller.userId, at);
      if (await this.store.hasPending(trx, project.id, caller.userId)) {
        throw conflict(
          'access_request_pending',
          'You already asked for access to this project; withdraw that request to ask again.',
        );
      }
      const id = await this.store.insert(
        trx,
        {
          organizationId,
          projectId: project.id,
          requesterId: caller.userId,
          level: input.level,
          reason: input.reason.trim(),
        },
        at,
        new Date(now.getTime() + ACCESS_REQUEST_TTL_MS).toISOString(),
      );
      const created = (await this.store.find(trx, organizationId, project.id, id))!;
      await this.record(trx, null, created, at);
      return this.toApi(created, at);
    });
  }

  /** Grants the requester `level` (the level they asked for when omitted) and approves the request. */
  async approve(
    caller: AccessRequestCaller,
    projectId: string,
    requestId: string,
    level: GrantRole | undefined,
  ): Promise<AccessRequest> {
    const answer = await this.decide(caller, projectId, requestId, async (trx, request, at) => {
      const granted = level ?? request.level;
      await this.grants.raiseUserGrant(
        trx,
        {
          organizationId: request.organization_id,
          projectId: request.project_id,
          userId: request.requester_id,
          role: granted,
        },
        at,
      );
      return { status: 'approved', by: caller.userId, grantedLevel: granted };
    });
    // A new grant changes what the requester may open from their next request on.
    await this.orgAccess.invalidate();
    return answer;
  }

  deny(caller: AccessRequestCaller, projectId: string, requestId: string): Promise<AccessRequest> {
    return this.decide(caller, projectId, requestId, async () => ({
      status: 'denied',
      by: caller.userId,
      grantedLevel: null,
    }));
  }

  /** The requester's own pending request, withdrawn; anyone else's answers as not found. */
  withdraw(caller: AccessRequestCaller, projectId: string, requestId: string): Promise<AccessRequest> {
    const mine = async (_trx: Executor, _project: ProjectRecord, request: AccessRequestRecord) => {
      if (request.requester_id !== caller.userId) throw requestNotFound(requestId);
    };
    return this.change(caller, projectId, requestId, mine, async () => ({
      status: 'withdrawn',
      by: null,
      grantedLevel: null,
    }));
  }

  /** An approver's decision on a pending request (403 `project_manage_required` for anyone else). */
  private decide(
    caller: AccessRequestCaller,
    projectId: string,
    requestId: string,
    outcome: Outcome,
  ): Promise<AccessRequest> {
    const approver = async (trx: Executor, project: ProjectRecord) => {
      const approvers = await this.approversOf(project, trx);
      if (!approvers.people.some((person) => person.user_id === caller.userId)) {
        throw forbidden(
          'project_manage_required',
          approvers.are === 'manageHolders'
            ? "Only the project's MANAGE holders decide its access requests."
            : "This project has no MANAGE holder, so its organization's OWNERs and ADMINs decide its access requests.",
        );
      }
    };
    return this.change(caller, projectId, requestId, approver, outcome);
  }

  /**
   * Ends a pending request as `outcome` says, with its audit event, in one transaction; `allowed`
   * decides first whether the caller may, so nobody else learns the request's state.
   */
  private change(
    caller: AccessRequestCaller,
    projectId: string,
    requestId: string,
    allowed: (trx: Executor, project: ProjectRecord, request: AccessRequestRecord) => Promise<void>,
    outcome: Outcome,
  ): Promise<AccessRequest> {
    const at = this.clock.now().toISOString();
    const organizationId = caller.access.organization.id;
    return this.uow.run(async (trx) => {
      const project = await this.project(trx, caller, projectId);
      await this.store.lock(trx, requestId);
      const before = await this.store.find(trx, organizationId, project.id, requestId);
      if (!before) throw requestNotFound(requestId);
      await allowed(trx, project, before);
      const status = this.toApi(before, at).status;
      if (status !== 'pending') throw notPending(status);
      const decision = await outcome(trx, before, at);
      await this.store.decide(trx, requestId, { ...decision, at });
      const after = (await this.store.find(trx, organizationId, project.id, requestId))!;
      await this.record(trx, before, after, at);
      return this.toApi(after, at);
    });
  }

  private async project(db: Executor, caller: AccessRequestCaller, projectId: string): Promise<ProjectRecord> {
    const project = await this.projects.findInOrg(db, caller.access.organization.id, projectId);
    if (!project) throw notFound('project_not_found', `No project ${projectId} in this organization.`);
    return project;
  }

  private async grantOf(db: Executor, caller: AccessRequestCaller, project: ProjectRecord) {
    return strongestGrant(await this.grants.rolesOnProject(db, project.organization_id, caller.userId, project.id));
  }

  private toApi(row: AccessRequestRecord, now: string): AccessRequest {
    const at: AccessRequestAt = { ...row, now };
    return accessRequestProjection.toApi(at);
  }

  /**
   * One audit event per step; its target is the request, known by the project it is for (the
   * sentence names the requester from the recorded request).
   */
  private record(trx: Executor, before: AccessRequestRecord | null, after: AccessRequestRecord, at: string) {
    return recordChange(trx, {
      organizationId: after.organization_id,
      target: { type: 'access_request', id: after.id, label: after.project_name },
      before: before && this.toApi(before, at),
      after: this.toApi(after, at),
    });
  }
}

/** What a step makes of a pending request. */
type Outcome = (
  trx: Executor,
  request: AccessRequestRecord,
  at: string,
) => Promise<{ status: AccessRequestStatus; by: string | null; grantedLevel: GrantRole | null }>;
