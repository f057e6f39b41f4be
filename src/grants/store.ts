import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { preparedQuery } from '../db/prepared-query.js';
import type { Executor } from '../db/unit-of-work.js';
import { shownName } from '../users/shown-profile.js';
import { strongestGrant, type GrantRole } from './roles.js';

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

/**
 * One way an active member reaches a project: a grant to them (`user`), a grant to an active team
 * they actively belong to (`team`), or the oversight of their OWNER or ADMIN role (`orgAdmin`,
 * `role` then being the org role). The member's name is the one their organization shows.
 */
export interface AccessPathRow {
  user_id: string;
  im_open_id: string;
  display_name: string;
  type: 'user' | 'team' | 'orgAdmin';
  role: GrantRole | 'OWNER' | 'ADMIN';
  team_id: string | null;
  team_name: string | null;
}

/** A team's grant on a project that is not archived. */
export interface TeamProjectRecord {
  project_id: string;
  project_name: string;
  folder_id: string | null;
  role: GrantRole;
  grant_id: string;
}

/** Permission grants on projects, for users and teams. */
export class GrantStore {
  /**
   * Every path by which an active member of the organization reaches the project: `grantsOfUser`
   * read from the project's side (the same principals: the user, and teams not archived of which
   * the user is an active member), plus the org admins' oversight. Revoked members reach nothing.
   */
  async accessPaths(db: Executor, organizationId: string, projectId: string): Promise<AccessPathRow[]> {
    const paths = db.raw(
      `(select g.principal_id as user_id, 'user' as type, g.role as role,
               cast(null as varchar(255)) as team_id, cast(null as varchar(255)) as team_name
          from project_grants g
         where g.project_id = ? and g.organization_id = ? and g.principal_type = 'USER'
        union all
        select tm.user_id, 'team', g.role, t.id, t.name
          from project_grants g
          join teams t on t.id = g.principal_id
          join team_members tm on tm.team_id = t.id
         where g.project_id = ? and g.organization_id = ? and g.principal_type = 'TEAM'
           and t.organization_id = ? and t.archived_at is null and tm.revoked_at is null
        union all
        select m.user_id, 'orgAdmin', m.role, null, null
          from memberships m
         where m.organization_id = ? and m.revoked_at is null and m.role in ('OWNER', 'ADMIN')) as pa`,
      [projectId, organizationId, projectId, organizationId, organizationId, organizationId],
    );
    return db
      .from(paths)
      .join('memberships as m', (on) =>
        on.on('m.user_id', 'pa.user_id').andOnVal('m.organization_id', organizationId).andOnNull('m.revoked_at'),
      )
      .join('users as u', 'u.id', 'pa.user_id')
      .select<AccessPathRow[]>(
        'pa.user_id',
        'u.im_open_id',
        shownName(db, { user: 'u', membership: 'm' }),
        'pa.type',
        'pa.role',
        'pa.team_id',
        'pa.team_name',
      );
  }

  /** The team's grants on the organization's projects that are not archived. */
  async teamProjects(db: Executor, organizationId: string, teamId: string): Promise<TeamProjectRecord[]> {
    return db('project_grants as g')
      .join('projects as p', 'p.id', 'g.project_id')
      .where({ 'g.organization_id': organizationId, 'g.principal_type': 'TEAM', 'g.principal_id': teamId })
      .whereNull('p.archived_at')
      .select<TeamProjectRecord[]>(
        'p.id as project_id',
        'p.name as project_name',
        'p.folder_id',
        'g.role',
        'g.id as grant_id',
      );
  }

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

  /**
   * Sets the user's own grant on the project to `role`, creating it when there is none; answers
   * the role it had before (null: none).
   */
  async upsertUserGrant(
    db: Executor,
    input: { organizationId: string; projectId: string; userId: string; role: GrantRole },
    at: string,
  ): Promise<GrantRole | null> {
    const key = { project_id: input.projectId, principal_type: 'USER', principal_id: input.userId };
    const existing = await db('project_grants').where(key).first<{ role: GrantRole } | undefined>('role');
    if (existing) await db('project_grants').where(key).update({ role: input.role, updated_at: at });
    else await this.insertUserGrant(db, input, at);
    return existing?.role ?? null;
  }

  /**
   * Gives the user at least `role` on the project by a grant to themselves: a weaker one is
   * raised, a stronger one kept. Returns the role the grant has afterwards.
   */
  async raiseUserGrant(
    db: Executor,
    input: { organizationId: string; projectId: string; userId: string; role: GrantRole },
    at: string,
  ): Promise<GrantRole> {
    const key = { project_id: input.projectId, principal_type: 'USER', principal_id: input.userId };
    const existing = await db('project_grants').where(key).forUpdate().first<{ role: GrantRole } | undefined>('role');
    if (!existing) {
      await this.insertUserGrant(db, input, at);
      return input.role;
    }
    const role = strongestGrant([existing.role, input.role])!;
    if (role !== existing.role) await db('project_grants').where(key).update({ role, updated_at: at });
    return role;
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
