import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { invalidateAgents } from '../../features/agents/api/invalidate';
import { getAgentSkillFilesQueryOptions } from '../../features/agents/api/get-agent-skill-files';
import { getAgentSkillsQueryOptions } from '../../features/agents/api/get-agent-skills';
import { invalidateCapabilityConnections } from '../../features/connections/api/invalidate';
import { getUsageBreakdownQueryOptions } from '../queries/get-usage-breakdown';
import { getUsageReportQueryOptions } from '../../features/usage/api/get-usage-report';
import { invalidateMembers } from '../../features/members/api/invalidate';
import { getMyProjectsQueryOptions } from '../../features/projects/api/get-my-projects';
import { getProjectQueryOptions } from '../../features/projects/api/get-project';
import { getTeamAccessQueryOptions } from '../queries/get-team-access';
import { invalidateProjects, invalidateTeamAccess } from '../../features/projects/api/invalidate';
import { getTeamMembersQueryOptions } from '../queries/get-team-members';
import { getTeamsQueryOptions } from '../queries/get-teams';
import { invalidateTeams } from '../../features/teams/api/invalidate';

/** A client holding an answer under each key, none of them stale yet. */
function cacheWith(keys: QueryKey[]) {
  const qc = new QueryClient();
  for (const key of keys) qc.setQueryData(key, {});
  return qc;
}
const invalidated = (qc: QueryClient, keys: QueryKey[]) =>
  keys.filter((key) => qc.getQueryState(key)?.isInvalidated).map((key) => JSON.stringify(key));
const names = (keys: QueryKey[]) => keys.map((key) => JSON.stringify(key));

// The keys a mutation invalidates come from each endpoint's query-options factory; these checks
// prove they select the answers the screens cache, in the mutated organization only.
describe('invalidation through the query-options factories', () => {
  it('a team change refreshes teams, every team’s members and every project’s access in its organization', async () => {
    const touched = [
      getTeamsQueryOptions('acme').queryKey,
      getTeamMembersQueryOptions('acme', 'team-1').queryKey,
      getTeamMembersQueryOptions('acme', 'team-2').queryKey,
      getTeamAccessQueryOptions('acme', 'project-1').queryKey,
    ];
    const untouched = [
      getTeamsQueryOptions('other').queryKey,
      getTeamMembersQueryOptions('other', 'team-1').queryKey,
      getTeamAccessQueryOptions('other', 'project-1').queryKey,
      getMyProjectsQueryOptions('acme').queryKey,
    ];
    const qc = cacheWith([...touched, ...untouched]);
    await invalidateTeams(qc, 'acme');
    expect(invalidated(qc, [...touched, ...untouched])).toEqual(names(touched));
  });

  it('a membership change refreshes members, teams and team members, not project access', async () => {
    const qc = cacheWith([
      getTeamMembersQueryOptions('acme', 'team-1').queryKey,
      getTeamAccessQueryOptions('acme', 'project-1').queryKey,
    ]);
    await invalidateMembers(qc, 'acme');
    expect(invalidated(qc, [getTeamMembersQueryOptions('acme', 'team-1').queryKey])).toHaveLength(1);
    expect(invalidated(qc, [getTeamAccessQueryOptions('acme', 'project-1').queryKey])).toEqual([]);
  });

  it('a project change refreshes every project page; an access change only that project’s list', async () => {
    const pages = [getProjectQueryOptions('acme', 'p1').queryKey, getProjectQueryOptions('acme', 'p2').queryKey];
    const access = [getTeamAccessQueryOptions('acme', 'p1').queryKey, getTeamAccessQueryOptions('acme', 'p2').queryKey];
    const qc = cacheWith([...pages, ...access]);
    await invalidateProjects(qc, 'acme');
    expect(invalidated(qc, [...pages, ...access])).toEqual(names(pages));
    await invalidateTeamAccess(qc, 'acme', 'p2');
    expect(invalidated(qc, access)).toEqual(names([access[1]!]));
  });

  it('a capability change refreshes the usage breakdown for every filter, not the usage report', async () => {
    const breakdowns = [
      getUsageBreakdownQueryOptions('acme', {}).queryKey,
      getUsageBreakdownQueryOptions('acme', { from: '2026-01-01', projectId: 'p1' }).queryKey,
    ];
    const report = getUsageReportQueryOptions('acme', {}).queryKey;
    const qc = cacheWith([...breakdowns, report]);
    await invalidateCapabilityConnections(qc, 'acme');
    expect(invalidated(qc, [...breakdowns, report])).toEqual(names(breakdowns));
  });

  it('an agent change refreshes the skills but not a skill’s files', async () => {
    const skills = getAgentSkillsQueryOptions('acme').queryKey;
    const files = getAgentSkillFilesQueryOptions('acme', 'pdf').queryKey;
    const qc = cacheWith([skills, files]);
    await invalidateAgents(qc, 'acme');
    expect(invalidated(qc, [skills, files])).toEqual(names([skills]));
  });
});
