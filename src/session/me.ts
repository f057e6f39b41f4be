import type { SessionService } from '../auth/sessions.js';
import { conflict } from '../errors/api-error.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import type { OrgAccessResolver } from '../orgs/org-access-resolver.js';
import type { OrganizationService } from '../orgs/service.js';
import type { TeamService } from '../teams/service.js';
import { teamNameProjection } from '../teams/projection.js';
import type { User, UserStore } from '../users/store.js';
import type { MeRecord } from './projection.js';

/** The signed-in person's own view: their organizations and teams, and the name they give themselves. */
export class MeService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserStore,
    private readonly organizations: OrganizationService,
    private readonly teams: TeamService,
    private readonly sessions: SessionService,
    private readonly orgAccess: OrgAccessResolver,
  ) {}

  /** The person and each organization they are an active member of, with their active teams there. */
  async of(user: User): Promise<MeRecord> {
    const [memberships, teams] = await Promise.all([
      this.organizations.listMembershipsOf(user.id),
      this.teams.teamsOfMember(user.id),
    ]);
    return {
      user,
      memberships: memberships.map((membership) => ({
        ...membership,
        teams: teams
          .filter((team) => team.organization_id === membership.organization.id)
          .map(teamNameProjection.toApi),
      })),
    };
  }

  /**
   * Sets the name the person gives themselves, refused once an identity provider gives it.
   * Sessions and each organization's access carry the name (the audit log's actor), so both
   * are told.
   */
  async setDisplayName(user: User, displayName: string): Promise<MeRecord> {
    const name = displayName.trim();
    if (!(await this.users.setOwnDisplayName(this.uow.executor, user.id, name))) {
      throw conflict(
        'display_name_from_provider',
        'Your name comes from the identity provider you sign in with; change it there.',
      );
    }
    await Promise.all([this.sessions.invalidateCache(), this.orgAccess.invalidate()]);
    return this.of({ ...user, displayName: name, displayNameSource: 'self' });
  }
}
