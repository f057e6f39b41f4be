import { isDeepStrictEqual } from 'node:util';
import { recordChange } from '../audit/trail.js';
import { withinLabel } from '../audit/labels.js';
import type { Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { notFound } from '../errors/api-error.js';
import { type GrantRole, strongestGrant } from '../grants/roles.js';
import type { AccessPathRow, GrantStore, TeamAccessRecord } from '../grants/store.js';
import { byCodeUnits, byName } from '../shared/order.js';
import type { ProjectAccessRecord } from './access-projection.js';
import type { TeamStore } from '../teams/store.js';
import { teamAccessProjection } from './projection.js';

const toTeamAccessEntry = teamAccessProjection.toApi;
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

  /** Every active member who can open the project, each with the level and the paths that give it. */
  async whoCanOpen(project: ProjectRecord, db: Executor = this.uow.executor): Promise<ProjectAccessRecord[]> {
    return accessOfMembers(await this.grants.accessPaths(db, project.organization_id, project.id));
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
      const before = await this.entryOf(trx, project.id, found.id);
      const after = await this.grants.upsertTeamGrant(
        trx,
        { organizationId, projectId: project.id, teamId: found.id, role },
        at,
      );
      await recordTeamAccessChange(trx, project, found.id, before, after);
      return after;
    });
  }

  async remove(project: ProjectRecord, teamId: string): Promise<void> {
    requireLive(project);
    await this.uow.run(async (trx) => {
      const before = await this.entryOf(trx, project.id, teamId);
      if (!(await this.grants.deleteTeamGrant(trx, project.id, teamId))) {
        throw notFound('grant_not_found', `Team ${teamId} holds no grant on this project.`);
      }
      await recordTeamAccessChange(trx, project, teamId, before, null);
    });
  }

  /** The team's entry in the project's team access, or null when it holds no grant. */
  private async entryOf(trx: Executor, projectId: string, teamId: string): Promise<TeamAccessRecord | null> {
    return (await this.grants.listTeamAccess(trx, projectId)).find((entry) => entry.team_id === teamId) ?? null;
  }
}

/** The audit event of one team's access to the project; a change that changes nothing records none. */
async function recordTeamAccessChange(
  trx: Executor,
  project: ProjectRecord,
  teamId: string,
  before: TeamAccessRecord | null,
  after: TeamAccessRecord | null,
): Promise<void> {
  const shown = { before: before && toTeamAccessEntry(before), after: after && toTeamAccessEntry(after) };
  if (isDeepStrictEqual(shown.before, shown.after)) return;
  await recordChange(trx, {
    organizationId: project.organization_id,
    target: {
      type: 'project_team_access',
      id: `${project.id}:${teamId}`,
      label: withinLabel((after ?? before)?.team_name, project.name),
    },
    ...shown,
  });
}

/** Where a path stands among a member's paths: their own grant, then team grants, then oversight. */
const PATH_PLACE = { user: 0, team: 1, orgAdmin: 2 } as const;

const byPlace = (a: AccessPathRow, b: AccessPathRow): number =>
  PATH_PLACE[a.type] - PATH_PLACE[b.type] ||
  byName(a.team_name ?? '', b.team_name ?? '') ||
  byCodeUnits(a.team_id ?? '', b.team_id ?? '');

/**
 * The members the paths reach, each at the strongest grant among their paths, or READ when only
 * oversight reaches them: what the project guard decides for each of them.
 */
function accessOfMembers(paths: AccessPathRow[]): ProjectAccessRecord[] {
  const byMember = new Map<string, AccessPathRow[]>();
  for (const path of paths) {
    const own = byMember.get(path.user_id);
    if (own) own.push(path);
    else byMember.set(path.user_id, [path]);
  }
  return [...byMember.values()].map((own) => {
    own.sort(byPlace);
    const grants = own.flatMap((path) => (path.type === 'orgAdmin' ? [] : [path.role as GrantRole]));
    const { user_id, im_open_id, display_name } = own[0]!;
    return {
      user_id,
      im_open_id,
      display_name,
      level: strongestGrant(grants) ?? 'READ',
      via: own.map(({ type, role, team_id, team_name }) => ({ type, role, team_id, team_name })),
    };
  });
}
