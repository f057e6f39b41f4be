import type { Clock } from '../config/clock.js';
import type { TeamStore } from '../teams/store.js';
import { conflict, forbidden, notFound } from '../errors/api-error.js';
import type { AuthenticatedSession } from '../auth/sessions.js';
import { isOrgAdminRole } from '../auth/rules.js';
import type { OrgAccess } from '../orgs/store.js';
import type { ProjectStore } from '../projects/store.js';
import type { ProjectAccess, ProjectRecord } from './project-access.js';
import { grantAtLeast, strongestGrant, type GrantRole } from './roles.js';
import type { GrantStore, TeamAccessRecord } from './store.js';

/**
 * Project authorization. Org role is not a project authorization root: access comes from
 * grants. Org admins may read any project of their organization (oversight) but change its
 * team access only with a MANAGE grant of their own.
 */
export class ProjectAccessService {
  constructor(
    private readonly teams: TeamStore,
    private readonly grants: GrantStore,
    private readonly projects: ProjectStore,
    private readonly clock: Clock,
  ) {}

  /** The guard behind the `projectRead` and `projectManage` rules. */
  readonly guard = async (
    rule: 'projectRead' | 'projectManage',
    access: OrgAccess,
    session: AuthenticatedSession,
    projectId: string,
  ): Promise<ProjectAccess> => {
    const project = await this.projects.findInOrg(access.organization.id, projectId);
    if (!project) throw notFound('project_not_found', `No project ${projectId} in this organization.`);
    const grant = await this.grantOf(access.organization.id, session.user.id, projectId);
    const isOrgAdmin = isOrgAdminRole(access.role);
    if (rule === 'projectRead' && !isOrgAdmin && !grantAtLeast(grant, 'READ')) {
      throw forbidden('project_access_denied', 'You hold no grant on this project; see /my-projects for the projects you can open.');
    }
    if (rule === 'projectManage' && !grantAtLeast(grant, 'MANAGE')) {
      throw forbidden('project_manage_required', 'Changing team access needs the MANAGE grant on this project; org admins get no override.');
    }
    return { project, grant, isOrgAdmin };
  };

  /** The strongest grant the user holds on the project, through themselves or an active team. */
  async grantOf(organizationId: string, userId: string, projectId: string): Promise<GrantRole | null> {
    return strongestGrant(await this.grants.rolesOnProject(organizationId, userId, projectId));
  }

  listTeamAccess(projectId: string): Promise<TeamAccessRecord[]> {
    return this.grants.listTeamAccess(projectId);
  }

  /** Gives a team a role on the project, or changes the role it has. */
  async putTeamAccess(project: ProjectRecord, team: { teamId?: string | undefined; teamSlug?: string | undefined }, role: GrantRole): Promise<TeamAccessRecord> {
    requireLive(project);
    const at = this.clock.now().toISOString();
    return this.teams.transaction(async (trx) => {
      const orgId = project.organization_id;
      const found =
        team.teamId !== undefined
          ? await this.teams.findActive(orgId, team.teamId, trx)
          : await this.teams.findActiveBySlug(orgId, team.teamSlug ?? '', trx);
      if (!found) throw notFound('team_not_found', `No active team ${team.teamId ?? team.teamSlug} in this organization.`);
      return this.grants.upsertTeamGrant(trx, { organizationId: project.organization_id, projectId: project.id, teamId: found.id, role }, at);
    });
  }

  async deleteTeamAccess(project: ProjectRecord, teamId: string): Promise<void> {
    requireLive(project);
    if (!(await this.grants.deleteTeamGrant(project.id, teamId))) {
      throw notFound('grant_not_found', `Team ${teamId} holds no grant on this project.`);
    }
  }
}

/** Archived projects stay readable but take no further change. */
export function requireLive(project: ProjectRecord): void {
  if (project.archived_at) throw conflict('project_archived', 'The project is archived and cannot be changed.');
}
