import type { QueryClient } from '@tanstack/react-query';
import { getOrgProjectAccessQueryKey } from '../../../lib/queries/get-project-access';
import { getOrgTeamAccessQueryKey } from '../../../lib/queries/get-team-access';
import { getOrgTeamMembersQueryKey } from '../../../lib/queries/get-team-members';
import { getTeamsQueryOptions } from '../../../lib/queries/get-teams';

/** Team changes show in the team list (names, counts), team pages and project access lists (both kinds). */
export const invalidateTeams = (qc: QueryClient, orgSlug: string) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: getTeamsQueryOptions(orgSlug).queryKey }),
    qc.invalidateQueries({ queryKey: getOrgTeamMembersQueryKey(orgSlug) }),
    qc.invalidateQueries({ queryKey: getOrgTeamAccessQueryKey(orgSlug) }),
    qc.invalidateQueries({ queryKey: getOrgProjectAccessQueryKey(orgSlug) }),
  ]);
