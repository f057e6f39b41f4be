import type { TeamSums } from '../usage/team-sums.js';
import type { AgentRoleService } from '../agents/roles-service.js';
import type { ApiTokenService } from '../api-tokens/service.js';
import type { AuditLog } from '../audit/log.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import type { Authorizer } from '../auth/authorize.js';
import type { SessionService } from '../auth/sessions.js';
import type { CapacityService } from '../capacity/service.js';
import type { Clock } from '../config/clock.js';
import type { Config } from '../config/config.js';
import type { CredentialResolver } from '../connections/resolver.js';
import type { ConnectionService } from '../connections/service.js';
import type { Db } from '../db/connect.js';
import type { ExplorerService } from '../explorer/service.js';
import type { FolderService } from '../folders/service.js';
import type { FolderStore } from '../folders/store.js';
import type { OperationTable } from '../http/operation-table.js';
import type { LibraryService } from '../library/service.js';
import type { Logger } from '../log/logger.js';
import type { MemberService } from '../members/service.js';
import type { MeService } from '../session/me.js';
import type { AccessRequestService } from '../access-requests/service.js';
import type { OrgAccessResolver } from '../orgs/org-access-resolver.js';
import type { OrganizationService } from '../orgs/service.js';
import type { OrganizationLifecycle } from '../orgs/lifecycle.js';
import type { OrganizationPurge } from '../orgs/purge.js';
import type { ProjectService } from '../projects/service.js';
import type { ForceReleaseService } from '../projects/force-release.js';
import type { TeamAccessService } from '../projects/team-access.js';
import type { SkillService } from '../skills/service.js';
import type { IdentityProviderService } from '../identity/providers.js';
import type { SignInService } from '../identity/sign-in.js';
import type { MyIdentityService } from '../identity/my-identities.js';
import type { InvitationService } from '../invitations/service.js';
import type { TeamService } from '../teams/service.js';
import type { UsageService } from '../usage/service.js';
import type { UsageRunBatches } from '../usage/run-batches.js';
import type { RuntimeCredentialService } from '../runtime/credential-service.js';
import type { RuntimeResolve } from '../runtime/resolve.js';
import type { UsageSeriesService } from '../usage/series.js';
import type { UserStore } from '../users/store.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { WebhookService } from '../webhooks/service.js';
import type { BudgetService } from '../budgets/service.js';
import type { PolicyService } from '../policies/service.js';
import type { AdmissionService } from '../policies/admission.js';
import type { DomainService } from '../domains/service.js';
import type { ServiceAccountService } from '../service-accounts/service.js';
import type { SsoEnforcement } from '../directory/enforcement.js';
import type { TestSignIn } from '../directory/test-sign-in.js';
import type { OrgIdentityProviderService } from '../directory/service.js';
import type { SignInOptions } from '../directory/sign-in-options.js';

/** The process's services, assembled once by `createServices` (the composition root). */
export interface Services {
  config: Config;
  db: Db;
  /** The unit of work every service writes through; its transactions carry the audit trail. */
  uow: UnitOfWork;
  /** Where kept reads run outside a transaction (Database.readers); the writer when none were given. */
  readers: Db;
  clock: Clock;
  logger: Logger;
  users: UserStore;
  sessions: SessionService;
  orgAccess: OrgAccessResolver;
  organizations: OrganizationService;
  /** The organization's life: rename, ownership transfers, deletion, restore and the purge. */
  lifecycle: OrganizationLifecycle;
  /** Removes organizations whose deletion has run its course (the job in `hub serve`, `hub org purge`). */
  purge: OrganizationPurge;
  authorizer: Authorizer;
  /** Personal API tokens: create, list, revoke, and the bearer check. */
  apiTokens: ApiTokenService;
  /** Reads the audit log. */
  auditLog: AuditLog;
  folderStore: FolderStore;
  folders: FolderService;
  projects: ProjectService;
  /** The platform admin's force-release of a project nobody can manage (host console). */
  forceRelease: ForceReleaseService;
  teamAccess: TeamAccessService;
  explorer: ExplorerService;
  usage: UsageService;
  /** The runs the agent runtime reports over HTTP, through the same ingest. */
  usageRuns: UsageRunBatches;
  /** The host's platform runtime credentials (`hub runtime-credential`). */
  runtimeCredentials: RuntimeCredentialService;
  /** Connection credentials resolved for the host's runtime over HTTP. */
  runtimeResolve: RuntimeResolve;
  usageSeries: UsageSeriesService;
  /** The usage sums per team, which team budgets read too. */
  teamSums: TeamSums;
  members: MemberService;
  teams: TeamService;
  /** What `/me` shows of the person, and the name they give themselves. */
  me: MeService;
  /** Members' requests for access to projects, and their approvers' decisions. */
  accessRequests: AccessRequestService;
  capacity: CapacityService;
  connections: ConnectionService;
  /** What the agent runtime calls for decrypted credentials. */
  credentials: CredentialResolver;
  /** Agent roles, their skill bindings and the model picker. */
  agentRoles: AgentRoleService;
  /** The agent library: the folder tree that groups roles and skills (the same rules as project folders). */
  library: LibraryService;
  /** Agent skills: the ingestion pipeline, the store on disk (`<data>/skills`) and the PATCH rules. */
  skills: SkillService;
  /** The identity providers the operator configures (`hub identity-provider`). */
  identityProviders: IdentityProviderService;
  /** Sign-in through those providers: start, callback, the identity's user and the session. */
  signIn: SignInService;
  /** Which sign-in buttons a page shows (an organization's own, or for a typed address). */
  signInOptions: SignInOptions;
  /** Each organization's own identity providers and their directory mappings. */
  orgIdentityProviders: OrgIdentityProviderService;
  testSignIn: TestSignIn;
  /** The sign-in verified domains require. */
  ssoEnforcement: SsoEnforcement;
  /** The person's own identities: listed and removed from the profile page. */
  myIdentities: MyIdentityService;
  /** Invitations by link, and joining an organization by accepting one. */
  invitations: InvitationService;
  /** Webhook endpoints, their secrets and deliveries. */
  webhooks: WebhookService;
  /** Sends due webhook deliveries; `hub serve` starts it and stops it on shutdown. */
  webhookDispatcher: WebhookDispatcher;
  /** Budgets, their live status and the alerts an ingest makes. */
  budgets: BudgetService;
  /** The domains organizations own and their DNS verification. */
  domains: DomainService;
  /** Service accounts: machine identities the organization owns, with their roles, teams and tokens. */
  serviceAccounts: ServiceAccountService;
  /** Usage policies: which models, providers and capabilities each scope's runs may use. */
  policies: PolicyService;
  /** Admission: may a run start, and the model picker for a project and an initiator. */
  admission: AdmissionService;
  /** Every operation of openapi.yaml with its rule and handler, each area's given its own service. */
  operations: OperationTable;
}
