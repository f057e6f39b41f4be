import type { Clock } from '../config/clock.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { notFound } from '../errors/api-error.js';
import type { GrantRole } from '../grants/roles.js';
import type { GrantStore, TeamAccessRecord } from '../grants/store.js';
import type { TeamStore } from '../teams/store.js';
import { requireLive, type ProjectRecord } from './project.js';

/** Which team a team-access request names: by id or by slug. */
export interface TeamReference {
  teamId?: string | undefined;
  teamSlug?: string | undefined;
}

/**
 * A project's team access: the grants its teams hold. Read with the project; changed only by
 * a holder of MANAGE, which the `projectManage` rule has checked before these methods run.
 */
export class TeamAccessService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly teams: TeamStore,
    private readonly grants: GrantStore,
    private readonly clock: Clock,
  ) {}

  list(projectId: string): Promise<TeamAccessRecord[]> {
    return this.grants.listTeamAccess(this.uow.executor, projectId);
  }

  /** Gives a team a role on the project, or changes the role it has. */
  async put(project: ProjectRecord, team: TeamReference, role: GrantRole): Promise<TeamAccessRecord> {
    requireLive(project);
    const at = this.clock.now().toISOString();
    const organizationId = project.organization_id;
    return this.uow.run(async (trx) => {
      const found =
        team.teamId !== undefined
          ? await this.teams.findActive(trx, organizationId, team.teamId)
          : await this.teams.findActiveBySlug(trx, organizationId, team.teamSlug ?? '');
      if (!found)
        throw notFound('team_not_found', `No active team ${team.teamId ?? team.teamSlug} in this organization.`);
      return this.grants.upsertTeamGrant(trx, { organizationId, projectId: project.id, teamId: found.id, role }, at);
    });
  }

  async remove(project: ProjectRecord, teamId: string): Promise<void> {
    requireLive(project);
    if (!(await this.grants.deleteTeamGrant(this.uow.executor, project.id, teamId))) {
      throw notFound('grant_not_found', `Team ${teamId} holds no grant on this project.`);
    }
  }
}
