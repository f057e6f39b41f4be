import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { preparedQuery } from '../db/prepared-query.js';
import type { Executor } from '../db/unit-of-work.js';
import type { GrantRole } from './roles.js';

export interface TeamAccessRecord {
  grant_id: string;
  project_id: string;
  organization_id: string;
  team_id: string;
  team_slug: string;
  team_name: string;
  role: GrantRole;
}

/**
 * The one definition of "the caller's principals" on a project: the user, and every team of
 * the organization that is not archived and of which the user is an active member. Revoked
 * memberships and archived teams therefore confer nothing from the moment they change.
 *
 * The principals are listed first and the grants reached through their index, so the cost
 * follows the caller's own grants, not the size of the organization.
 */
export function grantsOfUser(db: Executor, organizationId: string, userId: string): Knex.QueryBuilder {
  const principals = db.raw(
    `(select 'USER' as principal_type, cast(? as varchar(36)) as principal_id
      union all
      select 'TEAM', tm.team_id
        from team_members tm join teams t on t.id = tm.team_id
       where tm.user_id = ? and t.organization_id = ? and tm.revoked_at is null and t.archived_at is null) as pr`,
    [userId, userId, organizationId],
  );
  return db('project_grants as g')
    .join(principals, (on) => on.on('pr.principal_type', 'g.principal_type').andOn('pr.principal_id', 'g.principal_id'))
    .where('g.organization_id', organizationId);
}

/** The user's grants on one project, through any principal (`grantsOfUser`, narrowed to it). */
export function grantsOfUserOnProject(
  db: Executor,
  organizationId: string,
  userId: string,
  projectId: string,
): Knex.QueryBuilder {
  return grantsOfUser(db, organizationId, userId).where('g.project_id', projectId);
}

const rolesOfUserOnProject = preparedQuery<
  { organizationId: string; userId: string; projectId: string },
  { role: GrantRole }
>((db, { organizationId, userId, projectId }) =>
  grantsOfUserOnProject(db, organizationId, userId, projectId).select('g.role'),
);

/** Permission grants on projects, for users and teams. */
export class GrantStore {
  /** Every role the user holds on the project, through any principal. */
  async rolesOnProject(db: Executor, organizationId: string, userId: string, projectId: string): Promise<GrantRole[]> {
    const rows = await rolesOfUserOnProject(db, { organizationId, userId, projectId });
    return rows.map((r) => r.role);
  }

  async insertUserGrant(
    db: Executor,
    input: { organizationId: string; projectId: string; userId: string; role: GrantRole },
    at: string,
  ): Promise<void> {
    await db('project_grants').insert({
      id: randomUUID(),
      organization_id: input.organizationId,
      project_id: input.projectId,
      principal_type: 'USER',
      principal_id: input.userId,
      role: input.role,
      created_at: at,
      updated_at: at,
    });
  }

  /** Team grants on a project, for teams that are not archived, by team name. */
  async listTeamAccess(db: Executor, projectId: string): Promise<TeamAccessRecord[]> {
    return teamAccessQuery(db)
      .where('g.project_id', projectId)
      .orderBy([{ column: 't.name' }, { column: 't.slug' }]);
  }

  /** Creates or changes the team's grant on the project; returns the resulting entry. */
  async upsertTeamGrant(
    db: Executor,
    input: { organizationId: string; projectId: string; teamId: string; role: GrantRole },
    at: string,
  ): Promise<TeamAccessRecord> {
    const key = { project_id: input.projectId, principal_type: 'TEAM', principal_id: input.teamId };
    const updated = await db('project_grants').where(key).update({ role: input.role, updated_at: at });
    if (updated === 0) {
      await db('project_grants').insert({
        id: randomUUID(),
        organization_id: input.organizationId,
        ...key,
        role: input.role,
        created_at: at,
        updated_at: at,
      });
    }
    const entry = await teamAccessQuery(db)
      .where('g.project_id', input.projectId)
      .where('g.principal_id', input.teamId)
      .first();
    return entry as TeamAccessRecord;
  }

  /** Removes the team's grant on the project; false when there was none. */
  async deleteTeamGrant(db: Executor, projectId: string, teamId: string): Promise<boolean> {
    const deleted = await db('project_grants')
      .where({ project_id: projectId, principal_type: 'TEAM', principal_id: teamId })
      .delete();
    return deleted > 0;
  }
}

function teamAccessQuery(db: Executor): Knex.QueryBuilder<TeamAccessRecord, TeamAccessRecord[]> {
  return db('project_grants as g')
    .join('teams as t', 't.id', 'g.principal_id')
    .where('g.principal_type', 'TEAM')
    .whereNull('t.archived_at')
    .select(
      'g.id as grant_id',
      'g.project_id',
      'g.organization_id',
      't.id as team_id',
      't.slug as team_slug',
      't.name as team_name',
      'g.role',
    ) as never;
}
