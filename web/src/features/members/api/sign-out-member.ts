import { $api } from '../../../lib/api-client';

/** `POST …/members/{userId}/sign-out`: ends every session of the member. */
export const useSignOutMember = () => $api.useMutation('post', '/api/org/{orgSlug}/members/{userId}/sign-out');
