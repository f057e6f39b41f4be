import { useQuery } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';

/** `GET /api/invitations/{token}`: what a link invites to (a session is needed to look). */
export const getInvitationQueryOptions = (token: string) =>
  $api.queryOptions('get', '/api/invitations/{token}', { params: { path: { token } } });
export const useInvitation = (token: string, enabled = true) =>
  useQuery({ ...getInvitationQueryOptions(token), enabled, retry: false });
