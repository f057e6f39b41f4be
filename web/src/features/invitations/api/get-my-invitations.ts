import { useQuery } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';

/** `GET /api/me/invitations`: the pending invitations addressed to the person's verified emails. */
export const getMyInvitationsQueryOptions = () => $api.queryOptions('get', '/api/me/invitations');
export const useMyInvitations = () => useQuery(getMyInvitationsQueryOptions());
