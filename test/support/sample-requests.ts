import { listOperations } from '../../src/http/openapi-document.js';
import { fillPath } from './api-client.js';

export interface SampleRequest {
  operationId: string;
  method: string;
  /** The path with every parameter filled in. */
  path: string;
  body?: unknown;
}

/** Values for path parameters; ids are placeholders that name nothing. */
const PATH_VALUES: Record<string, string> = {
  orgSlug: 'acme',
  userId: 'u-placeholder',
  teamId: 't-placeholder',
  folderId: 'f-placeholder',
  projectId: 'p-placeholder',
  providerId: 'anthropic',
  roleId: 'reviewer',
  name: 'code-review',
  capabilityId: 'web-search',
};

/** A body each operation's contract accepts. */
const BODIES: Record<string, unknown> = {
  updateOrgSettings: { membersCanCreateProjects: false },
  addMember: { imOpenId: 'ou_sample', role: 'MEMBER' },
  updateMemberRole: { role: 'ADMIN' },
  createTeam: { slug: 'sample-team', name: 'Sample team' },
  updateTeam: { name: 'Renamed team' },
  addTeamMember: { imOpenId: 'ou_sample' },
  createFolder: { name: 'Sample folder' },
  updateFolder: { name: 'Renamed folder' },
  createProject: { name: 'Sample project' },
  renameProject: { name: 'Renamed project' },
  moveProject: { folderId: null },
  putProjectTeamAccess: { teamSlug: 'sample-team', role: 'READ' },
  rotateProviderConnection: { baseUrl: 'https://api.example.com', authToken: 'sample-token' },
  putChatApplicationConnection: { appId: 'cli_sample_app_id', appSecret: 'sample-secret', botOpenId: 'ou_bot' },
  updateCapacityPolicy: { limits: { memberCount: null } },
  putAgentRole: { label: 'Reviewer' },
  putAgentRoleSkills: { skillNames: [] },
  installAgentSkill: {
    version: '1.0.0',
    files: [{ path: 'SKILL.md', content: '---\nname: code-review\n---\nReview code.\n' }],
  },
  updateAgentSkill: { description: 'Reviews code' },
  createApiToken: { name: 'Sample token', scopes: ['org:read'] },
  updateAgentRole: { disabled: true },
  createAgentLibraryFolder: { name: 'Sample library folder' },
  updateAgentLibraryFolder: { name: 'Renamed library folder' },
  putCapabilityConnection: {
    label: 'Web search',
    kind: 'http',
    endpointUrl: 'https://search.example.com',
    headers: { Authorization: 'Bearer sample' },
  },
};

/** One valid request per operation of openapi.yaml, in document order. */
export function sampleRequests(orgSlug = 'acme'): SampleRequest[] {
  return listOperations().map(({ operationId, method, path }) => {
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const filled = fillPath(
      path,
      Object.fromEntries(names.map((name) => [name, name === 'orgSlug' ? orgSlug : (PATH_VALUES[name] ?? 'x')])),
    );
    const body = BODIES[operationId];
    const query = operationId === 'login' ? '?token=sample' : '';
    return { operationId, method: method.toUpperCase(), path: filled + query, ...(body === undefined ? {} : { body }) };
  });
}
