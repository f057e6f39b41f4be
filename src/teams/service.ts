import { isDeepStrictEqual } from 'node:util';
import { SLUG_PATTERN } from '../shared/slug.js';
import { recordChange } from '../audit/trail.js';
import { withinLabel } from '../audit/labels.js';
import type { CapacityService } from '../capacity/service.js';
import type { Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { badRequest, conflict, notFound } from '../errors/api-error.js';
import type { GrantStore, TeamProjectRecord } from '../grants/store.js';
import type { MemberStore } from '../members/store.js';
import type { OrgAccessResolver } from '../orgs/org-access-resolver.js';
import type { User, UserStore } from '../users/store.js';
import { teamMemberProjection, teamProjection } from './projection.js';
import type { TeamChanges, TeamMemberRecord, TeamNameRecord, TeamRecord, TeamStore } from './store.js';
import type { Schema } from '../api/types.js';

export type CreateTeamInput = Schema<'CreateTeamRequest'>;

/** Who to add to a team: exactly one of the two. */
export type TeamMemberRef = Schema<'AddTeamMemberRequest'>;

const teamNotFound = (teamId: string) => notFound('team_not_found', `No active team with the id "${teamId}".`);

/**
 * Teams of an organization and their members. Slugs are unique among active teams; an
 * archived team answers 404 and confers nothing; team members are active org members.
 */
export class TeamService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly teams: TeamStore,
    private readonly members: MemberStore,
    private readonly users: UserStore,
    private readonly orgAccess: OrgAccessResolver,
    private readonly clock: Clock,
    private readonly capacity: CapacityService,
    private readonly grants: GrantStore,
  ) {}

  list(organizationId: string): Promise<TeamRecord[]> {
    return this.teams.listActive(this.uow.executor, organizationId);
  }

  /** The active teams the user is in, in every organization, by name. */
  teamsOfMember(userId: string): Promise<TeamNameRecord[]> {
    return this.teams.namesOfMember(this.uow.executor, userId);
  }

  /** The organization's active teams, names only (what a MANAGE holder may grant access to). */
  names(organizationId: string): Promise<TeamNameRecord[]> {
    return this.teams.namesOf(this.uow.executor, organizationId);
  }

  async create(organizationId: string, input: CreateTeamInput): Promise<TeamRecord> {
    if (!SLUG_PATTERN.test(input.slug)) {
      throw badRequest(`Team slug "${input.slug}" must match ${SLUG_PATTERN.source}.`, [
        { path: '/body/slug', message: `must match pattern "${SLUG_PATTERN.source}"` },
      ]);
    }
    const name = teamName(input.name);
    const at = this.clock.now().toISOString();
    return this.uow.run(async (trx) => {
      await this.capacity.ensureRoom(trx, organizationId, 'teamCount');
      const id = await this.teams.insert(
        trx,
        { organizationId, slug: input.slug, name, description: input.description ?? null },
        at,
      );
      if (!id)
        throw conflict('slug_taken', `An active team of this organization already has the slug "${input.slug}".`);
      const created = await this.requireTeam(trx, organizationId, id);
      await recordTeamChange(trx, organizationId, id, null, created);
      return created;
    });
  }

  /** Changes the name and/or description (null clears it); properties left out are kept. */
  async update(organizationId: string, teamId: string, changes: TeamChanges): Promise<TeamRecord> {
    const name = changes.name === undefined ? undefined : teamName(changes.name);
    return this.uow.run(async (trx) => {
      const before = await this.lockTeam(trx, organizationId, teamId);
      if (!(await this.teams.update(trx, organizationId, teamId, { name, description: changes.description })))
        throw teamNotFound(teamId);
      const after = await this.requireTeam(trx, organizationId, teamId);
      await recordTeamChange(trx, organizationId, teamId, before, after);
      return after;
    });
  }

  async archive(organizationId: string, teamId: string): Promise<void> {
    const at = this.clock.now().toISOString();
    await this.uow.run(async (trx) => {
      const before = await this.lockTeam(trx, organizationId, teamId);
      if (!(await this.teams.archive(trx, organizationId, teamId, at))) throw teamNotFound(teamId);
      await recordTeamChange(trx, organizationId, teamId, before, null);
    });
    // Team rights are not cached today; clearing keeps "archived teams confer nothing from that
    // moment" true whatever the access cache comes to hold.
    await this.orgAccess.invalidate();
  }

  /** The team's grants on projects that are not archived. */
  async listProjects(organizationId: string, teamId: string): Promise<TeamProjectRecord[]> {
    await this.requireTeam(this.uow.executor, organizationId, teamId);
    return this.grants.teamProjects(this.uow.executor, organizationId, teamId);
  }

  async listMembers(organizationId: string, teamId: string): Promise<TeamMemberRecord[]> {
    await this.requireTeam(this.uow.executor, organizationId, teamId);
    return this.teams.listMembers(this.uow.executor, organizationId, teamId);
  }

  /** Adds an active member of the organization, named by user id or imOpenId, to the team. */
  async addMember(organizationId: string, teamId: string, ref: TeamMemberRef): Promise<TeamMemberRecord> {
    if ((ref.userId === undefined) === (ref.imOpenId === undefined)) {
      throw badRequest('Give exactly one of userId or imOpenId.', [
        { path: '/body', message: 'must have exactly one of userId, imOpenId' },
      ]);
    }
    const at = this.clock.now().toISOString();
    return this.uow.run(async (trx) => {
      const team = await this.teams.lockActive(trx, organizationId, teamId);
      if (!team) throw teamNotFound(teamId);
      const user = await this.findUser(trx, ref);
      if (!user) {
        const named = ref.userId !== undefined ? `the id "${ref.userId}"` : `the imOpenId "${ref.imOpenId}"`;
        throw notFound('user_not_found', `No user has ${named}.`);
      }
      if (!(await this.members.lockActive(trx, organizationId, user.id))) {
        throw notFound('member_not_found', `The user "${user.imOpenId}" is not an active member of this organization.`);
      }
      const added = await this.teams.insertMember(trx, teamId, user, at);
      if (!added)
        throw conflict('already_team_member', `The user "${user.imOpenId}" is already a member of this team.`);
      await recordTeamMemberChange(trx, organizationId, { id: teamId, name: team }, user.id, null, added);
      return added;
    });
  }

  /**
   * Ends the user's membership of the team. Only a membership the team's member list shows is
   * revoked, so the audit event can show what went; a membership row of a user no longer in the
   * organization is revoked with their org membership and is not listed.
   */
  async revokeMember(organizationId: string, teamId: string, userId: string): Promise<void> {
    const at = this.clock.now().toISOString();
    await this.uow.run(async (trx) => {
      const team = await this.teams.lockActive(trx, organizationId, teamId);
      if (!team) throw teamNotFound(teamId);
      const members = await this.teams.listMembers(trx, organizationId, teamId);
      const before = members.find((member) => member.user_id === userId);
      if (!before || !(await this.teams.revokeMember(trx, teamId, userId, at))) {
        throw notFound('member_not_found', `The user "${userId}" is not a member of this team.`);
      }
      await recordTeamMemberChange(trx, organizationId, { id: teamId, name: team }, userId, before, null);
    });
    await this.orgAccess.invalidate();
  }

  private async requireTeam(db: Executor, organizationId: string, teamId: string): Promise<TeamRecord> {
    const team = await this.teams.findActive(db, organizationId, teamId);
    if (!team) throw teamNotFound(teamId);
    return team;
  }

  /**
   * The active team, its row share-locked until the transaction ends (PostgreSQL), so the state
   * its audit event shows as `before` is the one the change replaces. Two changes of one team at
   * once then meet as a deadlock, which the unit of work runs again.
   */
  private async lockTeam(trx: Executor, organizationId: string, teamId: string): Promise<TeamRecord> {
    if (!(await this.teams.lockActive(trx, organizationId, teamId))) throw teamNotFound(teamId);
    return this.requireTeam(trx, organizationId, teamId);
  }

  private findUser(trx: Executor, ref: TeamMemberRef): Promise<User | undefined> {
    return ref.userId !== undefined
      ? this.users.findById(trx, ref.userId)
      : this.users.findByImOpenId(trx, ref.imOpenId!);
  }
}

/** The team's audit event, as the API shows it (`TeamRow`); a change that changes nothing records none. */
async function recordTeamChange(
  trx: Executor,
  organizationId: string,
  teamId: string,
  before: TeamRecord | null,
  after: TeamRecord | null,
): Promise<void> {
  const shown = { before: before && teamProjection.toApi(before), after: after && teamProjection.toApi(after) };
  if (isDeepStrictEqual(shown.before, shown.after)) return;
  await recordChange(trx, {
    organizationId,
    target: { type: 'team', id: teamId, label: (after ?? before)?.name ?? null },
    ...shown,
  });
}

/** A team membership's audit event (`TeamMemberRow`); its target id is `<teamId>:<userId>`. */
const recordTeamMemberChange = (
  trx: Executor,
  organizationId: string,
  team: { id: string; name: string },
  userId: string,
  before: TeamMemberRecord | null,
  after: TeamMemberRecord | null,
) =>
  recordChange(trx, {
    organizationId,
    target: {
      type: 'team_member',
      id: `${team.id}:${userId}`,
      label: withinLabel((after ?? before)?.display_name, team.name),
    },
    before: before && teamMemberProjection.toApi(before),
    after: after && teamMemberProjection.toApi(after),
  });

/** A team name without surrounding blanks, and not only blanks. */
function teamName(raw: string): string {
  const name = raw.trim();
  if (!name) throw badRequest('A team name must not be blank.', [{ path: '/body/name', message: 'must not be blank' }]);
  return name;
}
