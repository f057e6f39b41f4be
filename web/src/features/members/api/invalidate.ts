import type { QueryClient } from '@tanstack/react-query';
import { getOrgProjectAccessQueryKey } from '../../../lib/queries/get-project-access';
import { getOrgTeamMembersQueryKey } from '../../../lib/queries/get-team-members';
import { getTeamsQueryOptions } from '../../../lib/queries/get-teams';
import { getMembersQueryOptions } from '../../../lib/queries/get-members';

/** Membership changes show in the member list, team member lists, the team counts and who can open a project. */
export const invalidateMembers = (qc: QueryClient, orgSlug: string) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: getMembersQueryOptions(orgSlug).queryKey }),
    qc.invalidateQueries({ queryKey: getTeamsQueryOptions(orgSlug).queryKey }),
    qc.invalidateQueries({ queryKey: getOrgTeamMembersQueryKey(orgSlug) }),
    qc.invalidateQueries({ queryKey: getOrgProjectAccessQueryKey(orgSlug) }),
  ]);
