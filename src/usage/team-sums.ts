import type { Knex } from 'knex';
import type { Executor } from '../db/unit-of-work.js';
import type { FilterParams } from './records.js';
import { RUN_SUMS } from './rollup-levels.js';
import { rawRunSums, type UsageStore, within } from './store.js';

/**
 * The runs of a window per team and UTC day: a run counts for each team its accountable member
 * belonged to at the run's time (team memberships are kept when they end: `created_at` is when
 * the member joined, `revoked_at` when they left). Runs nobody is accountable for are one row of
 * team `''`; a member's runs while in no team are in no row.
 *
 * A membership covers whole days and, at most, a part of the day it began and of the day it
 * ended. The whole days are read from the member's daily sums (the report's window split: whole
 * days from the rollups, the window's edge days from the raw runs); the partial days from the
 * raw runs of that member inside the membership, which the index on (organization, member, time)
 * finds directly.
 */
export class TeamSums {
  constructor(private readonly usage: UsageStore) {}

  /**
   * Sums per `team_id` and `day` with RUN_SUMS (only the team's with `teamId`), and per `member_id`
   * too when `byMember` (a per-member allowance in a team); null when the window is empty.
   */
  daySums(db: Executor, params: FilterParams, byMember = false): Knex.QueryBuilder | null {
    // One team's figures need only its members' days (each membership's span is kept below).
    const memberDays = this.usage.runSums(
      db,
      params.teamId === undefined ? params : { ...params, everInTeam: params.teamId },
      ['day', 'member_id'],
    );
    if (!memberDays) return null;
    const sums = RUN_SUMS.map((m) => `m.${m}`);
    const wholeDays = db
      .from(memberDays.as('m'))
      .join('team_members as tm', 'tm.user_id', 'm.member_id')
      .join('teams as t', (on) => on.on('t.id', 'tm.team_id').andOnVal('t.organization_id', '=', params.organizationId))
      .whereRaw(`tm.created_at <= m.day || 'T00:00:00.000Z'`)
      .where((q) => q.whereNull('tm.revoked_at').orWhereRaw('substr(tm.revoked_at, 1, 10) > m.day'))
      .select('t.id as team_id', 'm.day', 'm.member_id', ...sums);
    const unattributed = db
      .from(memberDays.clone().as('m'))
      .where('m.member_id', '')
      .select(db.raw(`'' as team_id`), 'm.day', 'm.member_id', ...sums);
    const partial = within(db('runs as r'), 'r.at', { from: params.from, to: params.to })
      .join('team_members as tm', 'tm.user_id', 'r.member_id')
      .join('teams as t', (on) => on.on('t.id', 'tm.team_id').andOnVal('t.organization_id', '=', params.organizationId))
      .where('r.organization_id', params.organizationId)
      .whereRaw('r.at >= tm.created_at')
      .where((q) => q.whereNull('tm.revoked_at').orWhereRaw('r.at < tm.revoked_at'))
      // The day a membership began, unless it began at midnight, and the day it ended.
      .where((q) =>
        q
          .whereRaw(
            `substr(r.at, 1, 10) = substr(tm.created_at, 1, 10) and ` +
              `tm.created_at > substr(tm.created_at, 1, 10) || 'T00:00:00.000Z'`,
          )
          .orWhereRaw('substr(r.at, 1, 10) = substr(tm.revoked_at, 1, 10)'),
      )
      .groupBy('t.id', 'r.member_id')
      .groupByRaw('substr(r.at, 1, 10)')
      .select('t.id as team_id', db.raw('substr(r.at, 1, 10) as day'), 'r.member_id');
    if (params.memberId !== undefined) partial.where('r.member_id', params.memberId);
    this.usage.applyScope(db, partial, params);
    if (params.teamId !== undefined) {
      wholeDays.where('t.id', params.teamId);
      // Named as a list, the team's members make each one's runs a range of the index on
      // (organization, member, time); joined alone, the engine reads the organization's runs.
      partial
        .where('t.id', params.teamId)
        .whereIn('r.member_id', db('team_members').where('team_id', params.teamId).select('user_id'));
    }
    const parts = params.teamId === undefined ? [unattributed, rawRunSums(db, partial)] : [rawRunSums(db, partial)];
    const union = wholeDays.unionAll(parts);
    const keys = ['parts.team_id', 'parts.day', ...(byMember ? ['parts.member_id'] : [])];
    return db
      .from(union.as('parts'))
      .groupBy(...keys)
      .select(...keys, ...RUN_SUMS.map((m) => db.raw(`sum(parts.${m}) as ${m}`)));
  }
}
