import type { QueryClient } from '@tanstack/react-query';
import { getOrgTeamMembersQueryKey } from '../../teams/api/get-team-members';
import { getTeamsQueryOptions } from '../../teams/api/get-teams';
import { getMembersQueryOptions } from './get-members';

/** Membership changes show in the member list, team member lists and the team counts. */
export const invalidateMembers = (qc: QueryClient, orgSlug: string) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: getMembersQueryOptions(orgSlug).queryKey }),
    qc.invalidateQueries({ queryKey: getTeamsQueryOptions(orgSlug).queryKey }),
    qc.invalidateQueries({ queryKey: getOrgTeamMembersQueryKey(orgSlug) }),
  ]);
