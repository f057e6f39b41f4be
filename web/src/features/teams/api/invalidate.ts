import type { QueryClient } from '@tanstack/react-query';
import { getOrgTeamAccessQueryKey } from '../../projects/api/get-team-access';
import { getOrgTeamMembersQueryKey } from './get-team-members';
import { getTeamsQueryOptions } from './get-teams';

/** Team changes show in the team list (names, counts), team pages and project access lists. */
export const invalidateTeams = (qc: QueryClient, orgSlug: string) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: getTeamsQueryOptions(orgSlug).queryKey }),
    qc.invalidateQueries({ queryKey: getOrgTeamMembersQueryKey(orgSlug) }),
    qc.invalidateQueries({ queryKey: getOrgTeamAccessQueryKey(orgSlug) }),
  ]);
