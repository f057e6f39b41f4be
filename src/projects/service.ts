import fs from 'node:fs/promises';
import path from 'node:path';
import { decodeCursor, type Page, pageOfRows } from '../shared/pagination.js';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { recordChange } from '../audit/trail.js';
import type { CapacityService } from '../capacity/service.js';
import type { Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { notFound } from '../errors/api-error.js';
import type { GrantStore } from '../grants/store.js';
import type { FolderService } from '../folders/service.js';
import type { OrgAccess } from '../orgs/store.js';
import { isOrgAdminRole } from '../auth/rules.js';
import { bindingProjection, type ProjectViewer, projectViewProjection } from './projection.js';
import { requireLive, type ProjectRecord } from './project.js';
import type { ProjectAccess, ProjectGuard } from './project-guard.js';
import type { BindingRecord, ProjectDetailRecord, ProjectStore } from './store.js';
import { type SessionRecord, sessionProjection } from './session-projection.js';
import { type ManagedStateRecord, managedStates } from './managers.js';

/** Projects: creation with a workspace and a MANAGE grant for the creator, and their life cycle. */
export class ProjectService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly projects: ProjectStore,
    private readonly grants: GrantStore,
    private readonly folders: FolderService,
    private readonly guard: ProjectGuard,
    private readonly clock: Clock,
    private readonly workspacesDir: string,
    private readonly capacity: CapacityService,
  ) {}

  /**
   * Creates the project, its workspace directory and the creator's MANAGE grant. The
   * directory is made inside the transaction, so a failure to make it leaves no project row.
   * Who may create is the `projectCreator` rule's decision, made before this runs.
   */
  async create(
    organizationId: string,
    userId: string,
    input: { name: string; folderId?: string | undefined },
  ): Promise<ProjectRecord> {
    const at = this.clock.now().toISOString();
    return this.uow.run(async (trx) => {
      const folderId = input.folderId ?? null;
      if (folderId !== null) await this.folders.requireActive(organizationId, folderId, trx);
      await this.capacity.ensureRoom(trx, organizationId, 'projectCount');
      const id = randomUUID();
      const workspaceDir = path.join(this.workspacesDir, organizationId, id);
      const project = await this.projects.insert(
        trx,
        { id, organizationId, folderId, name: input.name, workspaceDir, createdBy: userId },
        at,
      );
      await this.grants.insertUserGrant(trx, { organizationId, projectId: id, userId, role: 'MANAGE' }, at);
      await recordProjectChange(trx, null, await this.requireDetail(trx, id));
      await fs.mkdir(workspaceDir, { recursive: true });
      return project;
    });
  }

  /** The project as the org admin mutation endpoints address it: in this organization, or 404. */
  async requireInOrg(organizationId: string, projectId: string): Promise<ProjectRecord> {
    const project = await this.projects.findInOrg(this.uow.reader, organizationId, projectId);
    if (!project) throw notFound('project_not_found', `No project ${projectId} in this organization.`);
    return project;
  }

  async rename(project: ProjectRecord, name: string): Promise<void> {
    await this.change(project, (trx) => this.projects.update(trx, project.id, { name }));
  }

  async move(project: ProjectRecord, folderId: string | null): Promise<void> {
    await this.change(project, async (trx) => {
      if (folderId !== null) await this.folders.requireActive(project.organization_id, folderId, trx);
      await this.projects.update(trx, project.id, { folder_id: folderId });
    });
  }

  async archive(project: ProjectRecord): Promise<void> {
    const at = this.clock.now().toISOString();
    await this.change(project, (trx) => this.projects.update(trx, project.id, { archived_at: at }));
  }

  async archiveBinding(project: ProjectRecord): Promise<void> {
    const at = this.clock.now().toISOString();
    await this.uow.run(async (trx) => {
      const binding = await this.projects.activeBinding(trx, project.id);
      if (!binding) throw notFound('binding_not_found', 'The project has no active chat binding.');
      await this.projects.archiveBinding(trx, binding.id, at);
      await recordBindingChange(trx, project, binding, null);
    });
  }

  /** Binds a chat to a project (host console); a previous binding of the project is archived. */
  async bindChat(organizationId: string, projectId: string, chatId: string): Promise<{ replaced: string | null }> {
    const project = await this.requireInOrg(organizationId, projectId);
    requireLive(project);
    const at = this.clock.now().toISOString();
    return this.uow.run(async (trx) => {
      const taken = await this.projects.activeBindingOfChat(trx, chatId);
      if (taken && taken.project_id !== projectId)
        throw new BindingConflict(`chat ${chatId} is already bound to project ${taken.project_id}`);
      if (taken) return { replaced: null };
      const previous = await this.projects.activeBinding(trx, projectId);
      if (previous) await this.projects.archiveBinding(trx, previous.id, at);
      await this.projects.insertBinding(trx, project, chatId, at);
      await recordBindingChange(trx, project, previous ?? null, (await this.projects.activeBinding(trx, projectId))!);
      return { replaced: previous?.chat_id ?? null };
    });
  }

  /**
   * Runs a change of a live project in one transaction with its audit event: the project as
   * the API shows it before and after. Whether it is live is asked inside the transaction, so
   * an archive committed meanwhile refuses the change.
   */
  private async change(project: ProjectRecord, write: (trx: Executor) => Promise<void>): Promise<void> {
    await this.uow.run(async (trx) => {
      const before = await this.requireDetail(trx, project.id);
      requireLive(before);
      await write(trx);
      await recordProjectChange(trx, before, await this.requireDetail(trx, project.id));
    });
  }

  private async requireDetail(db: Executor, projectId: string): Promise<ProjectDetailRecord> {
    const detail = await this.projects.detail(db, projectId);
    if (!detail) throw notFound('project_not_found', `No project ${projectId}.`);
    return detail;
  }

  async detail(projectId: string, viewer: ProjectViewer): Promise<ProjectDetailRecord & ProjectViewer> {
    return { ...(await this.requireDetail(this.uow.reader, projectId)), ...viewer };
  }

  /** The `actor…` flags for a caller whose grant is not known yet (org admin mutations). */
  async viewer(caller: OrgAccess, userId: string, projectId: string): Promise<ProjectViewer> {
    const grant = await this.guard.grantOf(caller.organization.id, userId, projectId);
    return { isOrgAdmin: isOrgAdminRole(caller.role), canManage: grant === 'MANAGE' };
  }

  /** The organization's live projects, each with whether an active member can manage it. */
  managedStates(organizationId: string): Promise<ManagedStateRecord[]> {
    return managedStates(this.uow.reader, organizationId);
  }

  /** One page of the project's sessions (`limit` of them, after `cursor`). */
  async listSessions(projectId: string, limit: number, cursor?: string): Promise<Page<SessionRecord>> {
    const after = cursor === undefined ? undefined : (decodeCursor(cursor, 2) as [string, string]);
    const rows = await this.projects.listSessions(this.uow.executor, projectId, limit + 1, after);
    return pageOfRows(rows, limit, sessionProjection.keyOfRow);
  }
}

/** The project's audit event; a change that leaves it as the API showed it records none. */
async function recordProjectChange(
  trx: Executor,
  before: ProjectDetailRecord | null,
  after: ProjectDetailRecord,
): Promise<void> {
  const shown = { before: before && projectViewProjection.toApi(before), after: projectViewProjection.toApi(after) };
  if (isDeepStrictEqual(shown.before, shown.after)) return;
  await recordChange(trx, {
    organizationId: after.organization_id,
    target: { type: 'project', id: after.id, label: after.name },
    ...shown,
  });
}

/** The audit event of the project's chat binding (one active binding per project, so named by the project). */
const recordBindingChange = (
  trx: Executor,
  project: ProjectRecord,
  before: BindingRecord | null,
  after: BindingRecord | null,
) =>
  recordChange(trx, {
    organizationId: project.organization_id,
    target: { type: 'project_binding', id: project.id, label: project.name },
    before: before && bindingProjection.toApi(before),
    after: after && bindingProjection.toApi(after),
  });

/** A chat already feeds another project. */
export class BindingConflict extends Error {}

/** The `actor…` flags for a caller the project rules already checked. */
export const viewerFrom = (access: ProjectAccess): ProjectViewer => ({
  isOrgAdmin: access.isOrgAdmin,
  canManage: access.grant === 'MANAGE',
});
