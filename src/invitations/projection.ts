import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';
import type { OrgRole } from '../orgs/store.js';
import { type StoredInvitationStatus, statusAt } from './status.js';

/** An invitation row joined to the names of who made and who accepted it. */
export interface InvitationRecord {
  id: string;
  organization_id: string;
  role: OrgRole;
  team_ids: string;
  email: string | null;
  status: StoredInvitationStatus;
  created_by: string | null;
  created_by_name: string | null;
  created_at: string;
  expires_at: string;
  accepted_by: string | null;
  accepted_by_name: string | null;
  accepted_at: string | null;
}

/** An invitation as read at a moment (`now`), which decides whether a pending one shows as expired. */
export interface InvitationAt extends InvitationRecord {
  now: string;
}

/** The console stands where no user made or accepted the invitation. */
const shownName = (name: string | null) => name ?? 'hub console';

/** An invitation as the API shows it; newest first (`created_at`, then `id`, both descending). */
export const invitationProjection = projection<InvitationAt, Schema<'Invitation'>>()({
  fields: {
    id: 'id',
    role: 'role',
    teamIds: { column: 'team_ids', as: (teamIds) => JSON.parse(teamIds) as string[] },
    email: 'email',
    status: { from: (row) => statusAt(row, row.now) },
    createdBy: { object: { id: 'created_by', displayName: { from: (row) => shownName(row.created_by_name) } } },
    createdAt: 'created_at',
    expiresAt: 'expires_at',
    acceptedBy: {
      object: { id: 'accepted_by', displayName: { from: (row) => shownName(row.accepted_by_name) } },
      when: 'accepted_by',
    },
    acceptedAt: 'accepted_at',
  },
  order: [
    { column: 'created_at', by: 'codeUnitsDescending' },
    { column: 'id', by: 'codeUnitsDescending' },
  ],
});

/** The invitation as the API shows it at `now`. */
export const invitationAt = (row: InvitationRecord, now: string): Schema<'Invitation'> =>
  invitationProjection.toApi({ ...row, now });
