import { recordChange } from '../audit/trail.js';
import type { Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { notFound } from '../errors/api-error.js';
import type { GrantStore } from '../grants/store.js';
import type { MemberStore } from '../members/store.js';
import type { TeamStore } from '../teams/store.js';
import type { UserStore } from '../users/store.js';
import { requireLive } from './project.js';
import type { ProjectStore } from './store.js';

/** Who became a manager by a force-release, as its audit event and the console name them. */
export interface ForceReleased {
  projectId: string;
  projectName: string;
  manager: { type: 'user'; userId: string; imOpenId: string } | { type: 'team'; teamId: string; teamSlug: string };
  /** The grant the manager held on the project before, if any. */
  previousRole: string | null;
}

/**
 * The platform admin's force-release (`hub project force-release`): MANAGE on a project for an
 * active member or an active team of its organization, whatever grants exist. Project access
 * otherwise comes only from grants, and org admins get no override; this is the one way out for
 * a project whose only manager left. It is a host-console act, never an API operation.
 */
export class ForceReleaseService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly projects: ProjectStore,
    private readonly grants: GrantStore,
    private readonly members: MemberStore,
    private readonly teams: TeamStore,
    private readonly users: UserStore,
    private readonly clock: Clock,
  ) {}

  /**
   * Gives MANAGE to the member with the imOpenId `manager`, or else to the active team with that
   * slug; a member of that imOpenId wins over a team of that slug.
   */
  async forceRelease(organizationId: string, projectId: string, manager: string): Promise<ForceReleased> {
    const at = this.clock.now().toISOString();
    return this.uow.run(async (trx) => {
      const project = await this.projects.findInOrg(trx, organizationId, projectId);
      if (!project) throw notFound('project_not_found', `no project ${projectId} in this organization`);
      requireLive(project);
      const principal = await this.principalOf(trx, organizationId, manager);
      const key = { organizationId, projectId, role: 'MANAGE' as const };
      const previousRole =
        principal.type === 'user'
          ? await this.grants.upsertUserGrant(trx, { ...key, userId: principal.userId }, at)
          : ((await this.grants.listTeamAccess(trx, projectId)).find((entry) => entry.team_id === principal.teamId)
              ?.role ?? null);
      if (principal.type === 'team') await this.grants.upsertTeamGrant(trx, { ...key, teamId: principal.teamId }, at);
      const released: ForceReleased = { projectId, projectName: project.name, manager: principal, previousRole };
      await recordChange(trx, {
        organizationId,
        target: { type: 'project_manager', id: projectId, label: project.name },
        before: { manager: managerName(principal), role: previousRole },
        after: { manager: managerName(principal), role: 'MANAGE' },
      });
      return released;
    });
  }

  private async principalOf(trx: Executor, organizationId: string, manager: string): Promise<ForceReleased['manager']> {
    const user = await this.users.findByImOpenId(trx, manager);
    if (user && (await this.members.findActive(trx, organizationId, user.id))) {
      return { type: 'user', userId: user.id, imOpenId: manager };
    }
    const team = await this.teams.findActiveBySlug(trx, organizationId, manager);
    if (team) return { type: 'team', teamId: team.id, teamSlug: team.slug };
    throw notFound(
      'member_not_found',
      `"${manager}" is neither the imOpenId of an active member nor the slug of an active team of this organization`,
    );
  }
}

const managerName = (manager: ForceReleased['manager']): string =>
  manager.type === 'user' ? `member ${manager.imOpenId}` : `team ${manager.teamSlug}`;
