import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/unit-of-work.js';
import { shownName } from '../users/shown-profile.js';
import type { User } from '../users/store.js';
import type { Schema } from '../api/types.js';
import { countLiveRows } from '../db/count-rows.js';
import { byCodeUnits, byName } from '../shared/order.js';
import type { MembershipOrigin } from '../members/origin.js';

/** An active team with its live member count. */
export interface TeamRecord {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  created_at: string;
  /** A count: a number on SQLite, a string (bigint) on PostgreSQL. */
  member_count: number | string;
}

/** An active team membership joined to its user. */
export interface TeamMemberRecord {
  user_id: string;
  im_open_id: string;
  display_name: string;
  created_at: string;
}

export type TeamChanges = Schema<'UpdateTeamRequest'>;

/** A team as a member sees it: in which organization, and its name. */
export interface TeamNameRecord {
  organization_id: string;
  id: string;
  slug: string;
  name: string;
}

/** Teams by name as people read it, then slug (unique among active teams), the same on both databases. */
const byTeamName = (teams: TeamNameRecord[]) =>
  teams.sort((a, b) => byName(a.name, b.name) || byCodeUnits(a.slug, b.slug));

/**
 * Teams and team memberships. "Active" means a team not archived and a team membership not
 * revoked whose user is still an active member of the team's organization.
 */
export class TeamStore {
  /** The organization's active teams with live member counts, in one query. */
  async listActive(db: Executor, organizationId: string): Promise<TeamRecord[]> {
    return activeTeams(db, organizationId);
  }

  /**
   * The active teams the user is an active member of, in every organization (whether the user's
   * membership of that organization is active is the caller's concern), by name.
   */
  async namesOfMember(db: Executor, userId: string): Promise<TeamNameRecord[]> {
    return db('team_members as tm')
      .join('teams as t', 't.id', 'tm.team_id')
      .where({ 'tm.user_id': userId })
      .whereNull('tm.revoked_at')
      .whereNull('t.archived_at')
      .select<TeamNameRecord[]>('t.organization_id', 't.id', 't.slug', 't.name')
      .then(byTeamName);
  }

  /** The organization's active teams, names only, by name. */
  async namesOf(db: Executor, organizationId: string): Promise<TeamNameRecord[]> {
    return db('teams as t')
      .where({ 't.organization_id': organizationId })
      .whereNull('t.archived_at')
      .select<TeamNameRecord[]>('t.organization_id', 't.id', 't.slug', 't.name')
      .then(byTeamName);
  }

  async findActive(db: Executor, organizationId: string, teamId: string): Promise<TeamRecord | undefined> {
    return activeTeams(db, organizationId).where('t.id', teamId).first();
  }

  async findActiveBySlug(db: Executor, organizationId: string, slug: string): Promise<TeamRecord | undefined> {
    return activeTeams(db, organizationId).where('t.slug', slug).first();
  }

  async countActive(trx: Executor, organizationId: string): Promise<number> {
    return countLiveRows(trx, 'teams', 'archived_at', organizationId);
  }

  /**
   * The team's name when it is active (null when not), holding a share lock on its row on PostgreSQL until the
   * transaction ends, so archiving waits for a team-member write in flight.
   */
  async lockActive(trx: Executor, organizationId: string, teamId: string): Promise<string | null> {
    const row = await trx('teams')
      .where({ id: teamId, organization_id: organizationId })
      .whereNull('archived_at')
      .forShare()
      .first<{ name: string } | undefined>('name');
    return row?.name ?? null;
  }

  /**
   * Inserts a team unless its slug is taken among the organization's active teams; returns
   * the new id, or undefined when the slug is taken. The partial unique index decides, so two
   * concurrent creates with one slug cannot both succeed.
   */
  async insert(
    trx: Executor,
    input: { organizationId: string; slug: string; name: string; description: string | null },
    at: string,
  ): Promise<string | undefined> {
    const inserted = await trx('teams')
      .insert({
        id: randomUUID(),
        organization_id: input.organizationId,
        slug: input.slug,
        name: input.name,
        description: input.description,
        created_at: at,
        archived_at: null,
      })
      .onConflict()
      .ignore()
      .returning<{ id: string }[]>('id');
    return inserted[0]?.id;
  }

  /** Applies the changes to an active team; false when there is no such team. */
  async update(trx: Executor, organizationId: string, teamId: string, changes: TeamChanges): Promise<boolean> {
    const set: Record<string, unknown> = {};
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.description !== undefined) set.description = changes.description;
    const team = trx('teams').where({ id: teamId, organization_id: organizationId }).whereNull('archived_at');
    if (Object.keys(set).length === 0) return (await team.first('id')) !== undefined;
    return (await team.update(set)) > 0;
  }

  /** Archives an active team; false when there is no such team. */
  async archive(db: Executor, organizationId: string, teamId: string, at: string): Promise<boolean> {
    const updated = await db('teams')
      .where({ id: teamId, organization_id: organizationId })
      .whereNull('archived_at')
      .update({ archived_at: at });
    return updated > 0;
  }

  /** The team's active members. */
  async listMembers(db: Executor, organizationId: string, teamId: string): Promise<TeamMemberRecord[]> {
    return activeTeamMembers(db, organizationId).where('tm.team_id', teamId);
  }

  /**
   * Adds the user to the team unless they already are an active team member; undefined when
   * they are. The partial unique index decides, so a concurrent duplicate cannot slip in.
   */
  async insertMember(
    trx: Executor,
    teamId: string,
    user: Pick<User, 'id' | 'imOpenId' | 'displayName'>,
    at: string,
    origin: MembershipOrigin = 'manual',
  ): Promise<TeamMemberRecord | undefined> {
    const inserted = await trx('team_members')
      .insert({ id: randomUUID(), team_id: teamId, user_id: user.id, origin, created_at: at, revoked_at: null })
      .onConflict()
      .ignore()
      .returning<{ id: string }[]>('id');
    if (inserted.length === 0) return undefined;
    // Read back rather than built from `user`: the name shown is the organization's (src/users/shown-profile.ts).
    return teamMembers(trx).where({ 'tm.team_id': teamId, 'tm.user_id': user.id }).whereNull('tm.revoked_at').first();
  }

  /** The user's active memberships of the organization's active teams: each team, its name, and what made it. */
  async heldBy(
    db: Executor,
    organizationId: string,
    userId: string,
  ): Promise<Array<{ teamId: string; teamName: string; origin: string }>> {
    const rows = await db('team_members as tm')
      .join('teams as t', 't.id', 'tm.team_id')
      .where({ 'tm.user_id': userId, 't.organization_id': organizationId })
      .whereNull('tm.revoked_at')
      .whereNull('t.archived_at')
      .orderBy('t.id')
      .select<{ team_id: string; name: string; origin: string }[]>('tm.team_id', 't.name', 'tm.origin');
    return rows.map((row) => ({ teamId: row.team_id, teamName: row.name, origin: row.origin }));
  }

  /** Ends the user's active membership of the team; false when there was none. */
  async revokeMember(db: Executor, teamId: string, userId: string, at: string): Promise<boolean> {
    const updated = await db('team_members')
      .where({ team_id: teamId, user_id: userId })
      .whereNull('revoked_at')
      .update({ revoked_at: at });
    return updated > 0;
  }

  /**
   * Ends every team membership the user holds in the organization's teams. Driven from the user's
   * memberships, each team looked up by its key: a list of the organization's team ids read every
   * team of every organization, as `teams` has no index on `organization_id` alone.
   */
  async revokeUserFromOrganization(trx: Executor, organizationId: string, userId: string, at: string): Promise<void> {
    await trx('team_members')
      .where('user_id', userId)
      .whereNull('revoked_at')
      .whereExists(
        trx('teams')
          .whereRaw('teams.id = team_members.team_id')
          .where('teams.organization_id', organizationId)
          .select(1),
      )
      .update({ revoked_at: at });
  }
}

/** Team memberships with their users, named as the team's organization names them. */
function teamMembers(db: Executor) {
  return db('team_members as tm')
    .join('teams as t', 't.id', 'tm.team_id')
    .join('users as u', 'u.id', 'tm.user_id')
    .join('memberships as m', (on) =>
      on.on('m.user_id', '=', 'tm.user_id').andOn('m.organization_id', '=', 't.organization_id'),
    )
    .select<TeamMemberRecord[]>(
      'u.id as user_id',
      'u.im_open_id',
      shownName(db, { user: 'u', membership: 'm' }),
      'tm.created_at',
    );
}

/** Team memberships that count: not revoked, and the user still an active org member. */
function activeTeamMembers(db: Executor, organizationId: string) {
  return teamMembers(db)
    .where('t.organization_id', organizationId)
    .whereNull('tm.revoked_at')
    .whereNull('m.revoked_at');
}

function activeTeams(db: Executor, organizationId: string) {
  const memberCounts = db('team_members as tm')
    .join('teams as ct', 'ct.id', 'tm.team_id')
    .join('memberships as m', (on) =>
      on.on('m.user_id', '=', 'tm.user_id').andOn('m.organization_id', '=', 'ct.organization_id'),
    )
    .where('ct.organization_id', organizationId)
    .whereNull('ct.archived_at')
    .whereNull('tm.revoked_at')
    .whereNull('m.revoked_at')
    .groupBy('tm.team_id')
    .select('tm.team_id', db.raw('count(*) as member_count'))
    .as('c');
  return db('teams as t')
    .leftJoin(memberCounts, 'c.team_id', 't.id')
    .where('t.organization_id', organizationId)
    .whereNull('t.archived_at')
    .select<TeamRecord[]>(
      't.id',
      't.slug',
      't.name',
      't.description',
      't.created_at',
      db.raw('coalesce(c.member_count, 0) as member_count'),
    );
}
