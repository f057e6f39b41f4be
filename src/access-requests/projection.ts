import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';
import type { AccessRequestRecord } from './store.js';

/** A request as read at `now`: a pending one past its expiry reads `expired` before anyone writes so. */
export type AccessRequestAt = AccessRequestRecord & { now: string };

export const accessRequestProjection = projection<AccessRequestAt, Schema<'AccessRequest'>>()({
  fields: {
    id: 'id',
    organizationSlug: 'organization_slug',
    projectId: 'project_id',
    projectName: 'project_name',
    requester: {
      object: { userId: 'requester_id', displayName: 'requester_name', imOpenId: 'requester_im_open_id' },
    },
    level: 'level',
    reason: 'reason',
    status: { from: (row) => (row.status === 'pending' && row.expires_at <= row.now ? 'expired' : row.status) },
    createdAt: 'created_at',
    expiresAt: 'expires_at',
    decidedAt: 'decided_at',
    decidedBy: {
      object: { userId: 'decided_by', displayName: 'decider_name', imOpenId: 'decider_im_open_id' },
      when: 'decided_by',
    },
    grantedLevel: 'granted_level',
  },
});
