import path from 'node:path';
import { ApiTokenService } from '../api-tokens/service.js';
import { ApiTokenStore } from '../api-tokens/store.js';
import { AuditLog } from '../audit/log.js';
import { AuditStore } from '../audit/store.js';
import { AuditTrail } from '../audit/trail.js';
import { Authorizer } from '../auth/authorize.js';
import { SessionStore } from '../auth/session-store.js';
import { SessionService } from '../auth/sessions.js';
import type { Config } from '../config/config.js';
import type { Clock } from '../config/clock.js';
import type { Db } from '../db/connect.js';
import type { Logger } from '../log/logger.js';
import { OrgAccessResolver } from '../orgs/org-access-resolver.js';
import { OrganizationService } from '../orgs/service.js';
import { OrganizationStore } from '../orgs/store.js';
import { OrganizationLifecycle } from '../orgs/lifecycle.js';
import { OrganizationPurge } from '../orgs/purge.js';
import { OwnershipTransferStore } from '../orgs/transfer-store.js';
import { UserStore } from '../users/store.js';
import { UsageService } from '../usage/service.js';
import { UsageRunBatches } from '../usage/run-batches.js';
import { RuntimeCredentialService } from '../runtime/credential-service.js';
import { RuntimeCredentialStore } from '../runtime/credential-store.js';
import { RuntimeResolve } from '../runtime/resolve.js';
import { IngestStore } from '../usage/ingest-store.js';
import { RollupStore } from '../usage/rollup-store.js';
import { UsageStore } from '../usage/store.js';
import { UsageSeriesService } from '../usage/series.js';
import { SeriesStore } from '../usage/series-store.js';
import { TeamSums } from '../usage/team-sums.js';
import { INITIATOR_KINDS } from '../usage/initiators.js';
import { GrantStore } from '../grants/store.js';
import { UnitOfWork, type Executor } from '../db/unit-of-work.js';
import { ProjectGuard } from '../projects/project-guard.js';
import { TeamAccessService } from '../projects/team-access.js';
import { ExplorerService } from '../explorer/service.js';
import { ExplorerStore } from '../explorer/store.js';
import { FolderService } from '../folders/service.js';
import { FolderStore } from '../folders/store.js';
import { LibraryService } from '../library/service.js';
import { LibraryFolderStore } from '../library/store.js';
import { ProjectService } from '../projects/service.js';
import { ForceReleaseService } from '../projects/force-release.js';
import { ProjectStore } from '../projects/store.js';
import { MemberService } from '../members/service.js';
import { MeService } from '../session/me.js';
import { AccessRequestService } from '../access-requests/service.js';
import { AccessRequestStore } from '../access-requests/store.js';
import { MemberStore } from '../members/store.js';
import { TeamService } from '../teams/service.js';
import { TeamStore } from '../teams/store.js';
import { CapacityService } from '../capacity/service.js';
import { CapacityStore } from '../capacity/store.js';
import type { Keyring } from '../crypto/keyring.js';
import { connectionKeyrings } from '../connections/keyrings.js';
import { CredentialResolver } from '../connections/resolver.js';
import { ConnectionService } from '../connections/service.js';
import { ConnectionStore } from '../connections/store.js';
import { AgentRoleService } from '../agents/roles-service.js';
import { AgentRoleStore } from '../agents/roles-store.js';
import { SkillContentStore, type SkillContent } from '../skills/content-store.js';
import { DatabaseSkillContent } from '../skills/database-content-store.js';
import { SharedRateWindows } from '../capacity/rate-window.js';
import { MINUTE_MS } from '../config/clock.js';
import type { CacheInvalidations } from '../shared/ttl-cache.js';
import { SkillIngestion } from '../skills/ingest.js';
import { SkillService } from '../skills/service.js';
import { SkillStore } from '../skills/store.js';
import { UserIdentityStore } from '../identity/identity-store.js';
import { LarkProtocol } from '../identity/lark.js';
import { OidcProtocol } from '../identity/oidc.js';
import { PendingSignInStore } from '../identity/pending-store.js';
import { IdentityProviderStore } from '../identity/provider-store.js';
import { IdentityProviderService } from '../identity/providers.js';
import { SignInService } from '../identity/sign-in.js';
import { MyIdentityService } from '../identity/my-identities.js';
import { buildOperationTable } from './operations.js';
import type { Services } from './service-set.js';
import { InvitationService } from '../invitations/service.js';
import { InvitationStore } from '../invitations/store.js';
import { AutoJoinService } from '../auto-join/service.js';
import { OutboundClient } from '../outbound/client.js';
import { WebhookDispatcher } from '../webhooks/dispatcher.js';
import { WebhookOutbox } from '../webhooks/outbox.js';
import { WebhookService } from '../webhooks/service.js';
import { WebhookStore } from '../webhooks/store.js';
import { BudgetService } from '../budgets/service.js';
import { BudgetStore } from '../budgets/store.js';
import { txtLookup } from '../domains/dns.js';
import { DomainService } from '../domains/service.js';
import { DomainStore } from '../domains/store.js';
import { ServiceAccountService } from '../service-accounts/service.js';
import { ServiceAccountStore } from '../service-accounts/store.js';
import { DepartureStore } from '../members/departure.js';
import { SsoEnforcement } from '../directory/enforcement.js';
import { LoginLinkPolicy } from '../directory/login-links.js';
import { OrgIdentityProviderService } from '../directory/service.js';
import { SignInOptions } from '../directory/sign-in-options.js';
import { DirectorySync } from '../directory/sync.js';
import { PolicyService } from '../policies/service.js';
import { PolicyStore } from '../policies/store.js';
import { AdmissionService } from '../policies/admission.js';
import { TestSignIn } from '../directory/test-sign-in.js';
import { PendingOwnerClaim } from '../orgs/pending-owner.js';
import { PendingOwnerStore } from '../orgs/pending-owner-store.js';

/** How long a cached session or membership may stand for a change made by another process. */
const DEFAULT_ACCESS_CACHE_TTL_MS = 2_000;

export type { Services };

/** Wires stores, services and the operations over them once per process (or per test). */
export function createServices(deps: {
  config: Config;
  db: Db;
  /** The database's readers (Database.readers); without them kept reads run on `db`. */
  readers?: Db;
  clock: Clock;
  logger: Logger;
  accessCacheTtlMs?: number;
  /** Master keys loaded at start-up; without them the keyring is loaded on first use. */
  keyring?: Keyring | undefined;
  /**
   * Given when several instances may share the database (PostgreSQL, `hub serve`): the caches
   * tell each other of changes, and the `requestRate` windows and the skill store live in the
   * database instead of this process's memory and disk.
   */
  sharedDatabase?: { invalidations: CacheInvalidations } | undefined;
  /** Every call the server makes to a URL someone else chose (tests give one with a stub resolver). */
  outbound?: OutboundClient;
}): Services {
  const { config, db, clock, logger } = deps;
  const readers = deps.readers ?? db;
  const ttl = deps.accessCacheTtlMs ?? DEFAULT_ACCESS_CACHE_TTL_MS;
  const auditStore = new AuditStore();
  const webhookStore = new WebhookStore();
  // Every audited write records its event and the webhook deliveries it starts, in its transaction.
  const auditTrail = new AuditTrail(auditStore, new WebhookOutbox(webhookStore));
  const uow = new UnitOfWork(db, readers, config.dbWaitMs, auditTrail);
  const users = new UserStore();
  const orgStore = new OrganizationStore();
  const invalidations = deps.sharedDatabase?.invalidations;
  const identityProviderStore = new IdentityProviderStore();
  const identityStore = new UserIdentityStore();
  const domainStore = new DomainStore();
  const ssoEnforcement = new SsoEnforcement(uow, domainStore, identityStore, identityProviderStore);
  const sessions = new SessionService(
    uow,
    new SessionStore(),
    users,
    clock,
    ttl,
    invalidations,
    new LoginLinkPolicy(config.loginLinks, ssoEnforcement, orgStore),
  );
  const orgAccess = new OrgAccessResolver(uow, orgStore, clock, ttl, invalidations);
  const domains = new DomainService(
    uow,
    domainStore,
    orgStore,
    txtLookup(config.dnsServers),
    clock,
    async (db, organizationId, providerId) => {
      const provider = await identityProviderStore.find(db, providerId);
      const ours = provider?.organizationId === null || provider?.organizationId === organizationId;
      return provider !== undefined && ours && provider.disabledAt === null;
    },
  );
  const pendingOwnerStore = new PendingOwnerStore();
  const organizations = new OrganizationService(
    uow,
    orgStore,
    users,
    orgAccess,
    clock,
    async (providerId) => (await identityProviderStore.find(uow.executor, providerId)) !== undefined,
    domains.verifiedAmong,
    (providerId) => identityProviderStore.find(uow.executor, providerId),
    pendingOwnerStore,
  );
  const folderStore = new FolderStore();
  const libraryStore = new LibraryFolderStore();
  const projectStore = new ProjectStore();
  const teamStore = new TeamStore();
  const memberStore = new MemberStore();
  const capacityStore = new CapacityStore();
  const capacity = new CapacityService(
    uow,
    capacityStore,
    {
      memberCount: (db, organizationId) => memberStore.countActive(db, organizationId),
      projectCount: (db, organizationId) => projectStore.countActive(db, organizationId),
      teamCount: (db, organizationId) => teamStore.countActive(db, organizationId),
      // Project folders and library folders count together.
      folderCount: async (db, organizationId) =>
        (await folderStore.countActive(db, organizationId)) + (await libraryStore.countActive(db, organizationId)),
      sessionCount: (db, organizationId) => projectStore.countOpenSessions(db, organizationId),
    },
    config,
    clock,
    ttl,
    {
      invalidations,
      requestWindows: deps.sharedDatabase ? new SharedRateWindows(uow, capacityStore, MINUTE_MS) : undefined,
    },
  );
  const folders = new FolderService(uow, folderStore, clock, capacity);
  const library = new LibraryService(uow, libraryStore, clock, capacity);
  const requireLibraryFolder = (organizationId: string, folderId: string, trx: Executor) =>
    library.requireActive(organizationId, folderId, trx);
  const grants = new GrantStore();
  const projectGuard = new ProjectGuard(uow, projectStore, grants);
  const auditLog = new AuditLog(uow, auditStore);
  const serviceAccountStore = new ServiceAccountStore();
  const apiTokens = new ApiTokenService(uow, new ApiTokenStore(), clock, ttl, invalidations, {
    policyOf: async (db, organizationId) => (await orgStore.getSettings(db, organizationId)).token_policy,
    unusedTokenPolicies: async (db) =>
      (await orgStore.tokenPolicies(db)).flatMap(({ organizationId, policy }) =>
        policy.revokeUnusedAfterDays === null
          ? []
          : [{ organizationId, revokeUnusedAfterDays: policy.revokeUnusedAfterDays }],
      ),
    serviceAccount: async (db, organizationId, id) => {
      const account = await serviceAccountStore.find(db, organizationId, id);
      return account && { disabled: account.disabled_at !== null };
    },
  });
  const authorizer = new Authorizer({
    sessions,
    tokens: apiTokens,
    memberships: orgAccess,
    projects: projectGuard,
    membersCanCreateProjects: (organizationId) => organizations.membersCanCreateProjects(organizationId),
  });
  const teamAccess = new TeamAccessService(uow, teamStore, grants, clock);
  const workspacesDir = path.join(config.dataDir, 'workspaces');
  const projects = new ProjectService(uow, projectStore, grants, folders, projectGuard, clock, workspacesDir, capacity);
  const explorer = new ExplorerService(uow, new ExplorerStore());
  const usageStore = new UsageStore(folderStore);
  const teamSums = new TeamSums(usageStore);
  const budgets = new BudgetService(
    uow,
    new BudgetStore(),
    usageStore,
    teamSums,
    {
      activeFolder: (db, organizationId, folderId) => folderStore.findActive(db, organizationId, folderId),
      project: (db, organizationId, projectId) => projectStore.findInOrg(db, organizationId, projectId),
      activeTeam: (db, organizationId, teamId) => teamStore.findActive(db, organizationId, teamId),
      activeMember: (db, organizationId, userId) => memberStore.findActive(db, organizationId, userId),
      apiToken: async (db, organizationId, tokenId) =>
        (await INITIATOR_KINDS.apiToken.resolve!(db, organizationId, [tokenId])).get(tokenId),
      liveServiceAccount: (db, organizationId, accountId) => serviceAccountStore.find(db, organizationId, accountId),
    },
    clock,
  );
  const usage = new UsageService(
    uow,
    { reads: usageStore, teams: teamSums, ingest: new IngestStore(), rollups: new RollupStore() },
    folderStore,
    (trx, organizationId) => budgets.announceReached(trx, organizationId),
  );
  const usageRuns = new UsageRunBatches(uow, usage, clock);
  const runtimeCredentials = new RuntimeCredentialService(uow, new RuntimeCredentialStore(), clock);
  const usageSeries = new UsageSeriesService(uow, new SeriesStore(usageStore, teamSums), usage);
  const members = new MemberService(
    uow,
    memberStore,
    teamStore,
    users,
    orgAccess,
    clock,
    capacity,
    {
      apiTokens,
      departures: new DepartureStore(),
    },
    sessions,
  );
  const serviceAccounts = new ServiceAccountService(uow, serviceAccountStore, teamStore, apiTokens, orgAccess, clock);
  const lifecycle = new OrganizationLifecycle(
    uow,
    orgStore,
    new OwnershipTransferStore(),
    memberStore,
    orgAccess,
    clock,
  );
  const purge = new OrganizationPurge(uow, orgStore, workspacesDir, clock, logger);
  const forceRelease = new ForceReleaseService(uow, projectStore, grants, memberStore, teamStore, users, clock);
  const teams = new TeamService(uow, teamStore, memberStore, users, orgAccess, clock, capacity, grants);
  const me = new MeService(uow, users, organizations, teams, sessions, orgAccess);
  const accessRequests = new AccessRequestService(
    uow,
    new AccessRequestStore(),
    projectStore,
    grants,
    teamAccess,
    orgAccess,
    clock,
  );
  const connectionStore = new ConnectionStore();
  const keyrings = connectionKeyrings({
    keyring: deps.keyring,
    db,
    masterKeys: config.masterKeys,
    dataDir: config.dataDir,
    logger,
  });
  const connections = new ConnectionService(uow, connectionStore, keyrings, clock, logger);
  const credentials = new CredentialResolver(uow, connectionStore, keyrings);
  const runtimeResolve = new RuntimeResolve((slug) => organizations.findBySlug(slug), credentials);
  const agentRoles = new AgentRoleService(uow, new AgentRoleStore(), config.models, clock, requireLibraryFolder);
  const skillStore = new SkillStore();
  const skillDisk = new SkillContentStore(path.join(config.dataDir, 'skills'));
  const skillContent: SkillContent = deps.sharedDatabase
    ? new DatabaseSkillContent(uow, skillDisk, () => clock.now())
    : skillDisk;
  const skills = new SkillService(
    uow,
    skillStore,
    new SkillIngestion(uow, skillContent, skillStore, capacity, clock),
    skillContent,
    clock,
    requireLibraryFolder,
  );
  const outbound = deps.outbound ?? new OutboundClient({ allowPrivate: config.outboundAllowPrivate });
  const identityProviders = new IdentityProviderService(
    uow,
    identityProviderStore,
    keyrings,
    clock,
    { oidc: new OidcProtocol(outbound), lark: new LarkProtocol() },
    config.outboundAllowPrivate,
  );
  const myIdentities = new MyIdentityService(uow, identityStore, orgStore, clock);
  const signIn = new SignInService(
    uow,
    identityProviders,
    new PendingSignInStore(),
    identityStore,
    users,
    sessions,
    orgAccess,
    clock,
    config.baseUrl,
    orgStore,
    [
      ssoEnforcement,
      // Before the directory and automatic membership: the person the organization waits for is its OWNER first.
      new PendingOwnerClaim(uow, pendingOwnerStore, identityProviderStore, domainStore, memberStore, orgAccess, clock),
      new DirectorySync(uow, identityProviderStore, memberStore, teamStore, orgAccess, capacity, clock, logger),
      new AutoJoinService(uow, orgStore, memberStore, orgAccess, capacity, clock, logger, (providerId) =>
        identityProviderStore.find(uow.executor, providerId),
      ),
    ],
  );
  const orgIdentityProviders = new OrgIdentityProviderService(
    uow,
    identityProviderStore,
    identityProviders,
    teamStore,
    domainStore,
    domains.verifiedAmong,
    clock,
    config.outboundAllowPrivate,
    config.baseUrl,
  );
  const signInOptions = new SignInOptions(uow, identityProviders, orgStore, domainStore);
  const invitations = new InvitationService(
    uow,
    new InvitationStore(),
    memberStore,
    teamStore,
    users,
    orgAccess,
    capacity,
    clock,
    domains.verifiedAmong,
    (db, userId, email) => ssoEnforcement.unmetFor(db, userId, email),
  );
  const policyStore = new PolicyStore();
  const policies = new PolicyService(
    uow,
    policyStore,
    {
      activeFolder: (db, organizationId, folderId) => folderStore.findActive(db, organizationId, folderId),
      project: (db, organizationId, projectId) => projectStore.findInOrg(db, organizationId, projectId),
      activeTeam: (db, organizationId, teamId) => teamStore.findActive(db, organizationId, teamId),
    },
    () => config.models.map((model) => model.id),
    clock,
    ttl,
    invalidations,
  );
  const roleStore = new AgentRoleStore();
  const admission = new AdmissionService(
    uow,
    policyStore,
    policies,
    {
      project: (db, organizationId, projectId) => projectStore.findInOrg(db, organizationId, projectId),
      grantOf: (organizationId, userId, projectId) => projectGuard.grantOf(organizationId, userId, projectId),
      teamsOf: (db, userId) => teamStore.namesOfMember(db, userId),
      serviceAccount: (db, organizationId, id) => serviceAccountStore.find(db, organizationId, id),
      role: async (db, organizationId, roleId) => (await roleStore.find(db, organizationId, roleId))?.role,
      provider: (db, organizationId, providerId) => connectionStore.findProvider(db, organizationId, providerId),
      capability: (db, organizationId, capabilityId) =>
        connectionStore.findCapability(db, organizationId, capabilityId),
      blockingBudgets: (organizationId, run) => budgets.blocking(organizationId, run),
      limit: (organizationId, dimension) => capacity.effectiveLimit(organizationId, dimension),
      models: () => config.models,
    },
    clock,
  );
  const webhooks = new WebhookService(uow, webhookStore, keyrings, outbound, clock);
  const webhookDispatcher = new WebhookDispatcher({
    uow,
    store: webhookStore,
    webhooks,
    outbound,
    clock,
    logger,
    settings: config.webhookDelivery,
  });
  const services = {
    config,
    db,
    uow,
    readers,
    clock,
    logger,
    users,
    sessions,
    orgAccess,
    organizations,
    lifecycle,
    purge,
    authorizer,
    apiTokens,
    auditLog,
    folderStore,
    folders,
    projects,
    forceRelease,
    teamAccess,
    explorer,
    usage,
    usageRuns,
    runtimeCredentials,
    runtimeResolve,
    usageSeries,
    teamSums,
    members,
    teams,
    me,
    accessRequests,
    capacity,
    connections,
    credentials,
    agentRoles,
    library,
    skills,
    identityProviders,
    signIn,
    signInOptions,
    orgIdentityProviders,
    testSignIn: new TestSignIn(uow, identityProviderStore, signIn, users, clock),
    ssoEnforcement,
    myIdentities,
    invitations,
    webhooks,
    webhookDispatcher,
    budgets,
    domains,
    serviceAccounts,
    policies,
    admission,
  };
  return { ...services, operations: buildOperationTable(services) };
}
