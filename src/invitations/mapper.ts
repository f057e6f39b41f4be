import type { Schema } from '../api/types.js';
import type { InvitationRecord } from './store.js';

export type InvitationStatus = Schema<'InvitationStatus'>;

/** The status as the API shows it: a pending invitation past its expiry is `expired`. */
export const statusAt = (row: Pick<InvitationRecord, 'status' | 'expires_at'>, now: string): InvitationStatus =>
  row.status === 'pending' && row.expires_at <= now ? 'expired' : row.status;

const person = (id: string | null, name: string | null): Schema<'InvitationPerson'> => ({
  id,
  displayName: name ?? 'hub console',
});

/** An invitation as the API shows it at `now`. */
export const toInvitation = (row: InvitationRecord, now: string): Schema<'Invitation'> => ({
  id: row.id,
  role: row.role,
  teamIds: JSON.parse(row.team_ids) as string[],
  email: row.email,
  status: statusAt(row, now),
  createdBy: person(row.created_by, row.created_by_name),
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  acceptedBy: row.accepted_by === null ? null : person(row.accepted_by, row.accepted_by_name),
  acceptedAt: row.accepted_at,
});
