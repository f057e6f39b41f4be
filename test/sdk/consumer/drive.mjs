// A plain ESM consumer of the packed SDK, run with node from a project that installed the
// tarball. Drives the real service and prints what it saw as one JSON line.
import { ApiError, createOrgAdminClient } from '@agent-hub/org-admin-sdk';

const { HUB_URL, HUB_ORG, HUB_COOKIE, HUB_TOKEN_METHOD, HUB_TOKEN_RAW } = process.env;

/** The outcome of a call that should fail. */
async function failure(call) {
  try {
    return { resolved: await call() };
  } catch (error) {
    return {
      isApiError: error instanceof ApiError,
      name: error.name,
      status: error.status,
      code: error.code,
      message: error.message,
    };
  }
}

const hub = createOrgAdminClient({ baseUrl: HUB_URL, orgSlug: HUB_ORG, headers: { cookie: HUB_COOKIE } });
const seen = {};

seen.me = await hub.getMe();
seen.organization = await hub.getOrganization();
seen.settingsBefore = await hub.getOrgSettings();
seen.settingsReturned = await hub.updateOrgSettings({
  body: { membersCanCreateProjects: !seen.settingsBefore.membersCanCreateProjects },
});
seen.settingsAfter = await hub.getOrgSettings();

seen.team = await hub.createTeam({ body: { slug: 'platform', name: 'Platform', description: 'Runs the hub' } });
seen.teams = await hub.listTeams();

seen.created = await hub.createProject({ body: { name: 'Apollo' } });
seen.project = await hub.getProject({ projectId: seen.created.id });
seen.sessions = await hub.listProjectSessions({ projectId: seen.created.id, query: { limit: 10 } });
// Empty query values are left out: the service would reject `from=` as not a date-time.
seen.usage = await hub.getUsageReport({ query: { from: '', to: undefined } });

// The second wave's operations, derived like the others.
seen.breakdown = await hub.getUsageBreakdown({ query: { projectId: seen.created.id } });
seen.capability = await hub.putCapabilityConnection({
  capabilityId: 'web-search',
  body: {
    label: 'Web search',
    kind: 'http',
    endpointUrl: 'https://search.example.com',
    headers: { Authorization: 'Bearer sdk' },
  },
});
seen.capabilities = await hub.listCapabilityConnections();
seen.capabilityDisabled = await hub.disableCapabilityConnection({ capabilityId: 'web-search' });
seen.libraryFolder = await hub.createAgentLibraryFolder({ body: { name: 'Shelf' } });
seen.library = await hub.getAgentLibrary();
await hub.putAgentRole({ roleId: 'coder', body: { label: 'Coder', libraryFolderId: seen.libraryFolder.id } });
seen.roleDisabled = await hub.updateAgentRole({ roleId: 'coder', body: { disabled: true } });
// Shelf holds the (disabled) role, so it cannot be archived; an empty folder is renamed, then archived.
seen.libraryFolderNotEmpty = await failure(() => hub.archiveAgentLibraryFolder({ folderId: seen.libraryFolder.id }));
seen.drawer = await hub.createAgentLibraryFolder({ body: { name: 'Drawer' } });
seen.drawerRenamed = await hub.updateAgentLibraryFolder({ folderId: seen.drawer.id, body: { name: 'Cabinet' } });
seen.libraryRenamed = await hub.getAgentLibrary();
seen.drawerArchived = await hub.archiveAgentLibraryFolder({ folderId: seen.drawer.id });
seen.libraryAfterArchive = await hub.getAgentLibrary();
await hub.rotateProviderConnection({
  providerId: 'anthropic',
  body: { baseUrl: 'https://api.example.com', authToken: 'sk-sdk' },
});
seen.providerDisabled = await hub.disableProviderConnection({ providerId: 'anthropic' });
seen.projectNotFound = await failure(() => hub.getProject({ projectId: 'no-such-project' }));
seen.teamSlugTaken = await failure(() => hub.createTeam({ body: { slug: 'platform', name: 'Again' } }));

// login: the one-time link is consumed, the 303 is not followed, the result is undefined.
const anonymous = createOrgAdminClient({ baseUrl: HUB_URL, orgSlug: HUB_ORG });
seen.loginResultType = typeof (await anonymous.login({ query: { token: HUB_TOKEN_METHOD } }));
seen.loginTokenReused = await failure(() => anonymous.login({ query: { token: HUB_TOKEN_METHOD } }));

// The README's Node recipe: exchange a login token for the session cookie through raw.
const { response } = await anonymous.raw.GET('/auth/login', {
  params: { query: { token: HUB_TOKEN_RAW } },
  redirect: 'manual',
});
const cookie = response.headers
  .getSetCookie()
  .find((c) => c.startsWith('hub_session='))
  ?.split(';')[0];
seen.rawLoginStatus = response.status;
seen.meThroughRawLoginCookie = (
  await createOrgAdminClient({ baseUrl: HUB_URL, orgSlug: HUB_ORG, headers: { cookie } }).getMe()
).user.imOpenId;

// A server-side integration: a token created with the session, then used alone (no cookie).
seen.tokenMember = await hub.addMember({ body: { imOpenId: 'sdk-e2e-member', displayName: 'Member', role: 'MEMBER' } });
const created = await hub.createApiToken({ body: { name: 'sdk e2e', scopes: ['members:read'] } });
seen.createdToken = { ...created, token: created.token.replace(/^(hubt_).+$/, '$1…') };
seen.tokenShape = /^hubt_[a-z2-7]{16}_[0-9A-Za-z]{43}$/.test(created.token);
const integration = createOrgAdminClient({ baseUrl: HUB_URL, orgSlug: HUB_ORG, token: created.token });
seen.membersThroughToken = [];
for await (const member of integration.paginate(integration.listMembers, { query: { limit: 1 } })) {
  seen.membersThroughToken.push(member.imOpenId);
}
seen.tokenOutOfScope = await failure(() => integration.listTeams());
seen.tokenSessionOnly = await failure(() => integration.getMe());
seen.tokenOtherOrg = await failure(() =>
  createOrgAdminClient({ baseUrl: HUB_URL, orgSlug: 'no-such-org', token: created.token }).listMembers(),
);
await hub.revokeApiToken({ tokenId: created.id });
seen.tokenRevoked = await failure(() => integration.listMembers());

seen.logoutResultType = typeof (await hub.logout());
seen.afterLogout = await failure(() => hub.getMe());

console.log(JSON.stringify(seen));
