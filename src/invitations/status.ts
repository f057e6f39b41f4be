import type { Knex } from 'knex';
import type { Schema } from '../api/types.js';

/** The status as the API shows it, `expired` included. */
export type InvitationStatus = Schema<'InvitationStatus'>;

/** What is decided about an invitation and stored; `expired` is derived from `expires_at` when read. */
export type StoredInvitationStatus = 'pending' | 'accepted' | 'revoked';

/**
 * The one rule of the shown status: a pending invitation whose expiry has come (`expires_at` at or
 * before `now`) is `expired`; otherwise the stored status stands. `statusAt` applies it to a row,
 * `whereStatusAt` to a query, so what a list filters on is what its items show.
 */
export const statusAt = (row: { status: StoredInvitationStatus; expires_at: string }, now: string): InvitationStatus =>
  row.status === 'pending' && row.expires_at <= now ? 'expired' : row.status;

/** Keeps the rows of `query` (invitations aliased `i`) whose status at `now` is `status`. */
export function whereStatusAt<Q extends Knex.QueryBuilder>(query: Q, status: InvitationStatus, now: string): Q {
  if (status === 'expired') return query.where({ 'i.status': 'pending' }).where('i.expires_at', '<=', now) as Q;
  if (status === 'pending') return query.where({ 'i.status': 'pending' }).where('i.expires_at', '>', now) as Q;
  return query.where({ 'i.status': status }) as Q;
}
