import { agentRoleOperations } from '../agents/operations.js';
import { apiTokenOperations } from '../api-tokens/operations.js';
import type { OperationId } from '../api/types.js';
import { auditOperations } from '../audit/operations.js';
import { capacityOperations } from '../capacity/operations.js';
import { connectionOperations } from '../connections/operations.js';
import { explorerOperations } from '../explorer/operations.js';
import { folderOperations } from '../folders/operations.js';
import type { OperationTable } from '../http/operation-table.js';
import { libraryOperations } from '../library/operations.js';
import { memberOperations } from '../members/operations.js';
import { accessRequestOperations } from '../access-requests/operations.js';
import { organizationOperations } from '../orgs/operations.js';
import { organizationLifecycleOperations } from '../orgs/lifecycle-operations.js';
import { projectOperations } from '../projects/operations.js';
import { teamAccessOperations } from '../projects/team-access-operations.js';
import { sessionOperations } from '../session/operations.js';
import { skillOperations } from '../skills/operations.js';
import { teamOperations } from '../teams/operations.js';
import { usageOperations, usageSeriesOperations } from '../usage/operations.js';
import { signInOperations } from '../identity/operations.js';
import { myIdentityOperations } from '../identity/my-identity-operations.js';
import { invitationOperations } from '../invitations/operations.js';
import { webhookOperations } from '../webhooks/operations.js';
import { budgetOperations } from '../budgets/operations.js';
import { domainOperations } from '../domains/operations.js';
import { serviceAccountOperations } from '../service-accounts/operations.js';
import { orgIdentityProviderOperations } from '../directory/operations.js';
import { policyOperations } from '../policies/operations.js';
import { runtimeOperations } from '../runtime/operations.js';
import type { Services } from './service-set.js';

/** Every feature module, each given its own service: each declares some operations, none twice. */
function operationModules(services: Omit<Services, 'operations'>) {
  const { sessions, organizations, clock, config } = services;
  return [
    sessionOperations({ sessions, me: services.me, clock, secureCookie: config.baseUrl.startsWith('https:') }),
    organizationOperations(organizations),
    organizationLifecycleOperations(services.lifecycle),
    folderOperations(services.folders),
    projectOperations(services.projects),
    explorerOperations(services.explorer),
    teamAccessOperations(services.teamAccess, services.teams),
    accessRequestOperations(services.accessRequests),
    memberOperations(services.members),
    teamOperations(services.teams),
    capacityOperations(services.capacity),
    usageOperations(services.usage, services.usageRuns),
    usageSeriesOperations(services.usageSeries),
    connectionOperations(services.connections, services.admission),
    agentRoleOperations(services.agentRoles, services.admission),
    libraryOperations(services.library),
    skillOperations(services.skills),
    apiTokenOperations(services.apiTokens),
    auditOperations(services.auditLog),
    signInOperations({
      signIn: services.signIn,
      options: services.signInOptions,
      loginLinks: config.loginLinks,
      tests: services.testSignIn,
      sessions,
      clock,
      baseUrl: config.baseUrl,
    }),
    myIdentityOperations(services.myIdentities),
    invitationOperations({ invitations: services.invitations, clock, baseUrl: config.baseUrl }),
    webhookOperations(services.webhooks),
    budgetOperations(services.budgets),
    domainOperations(services.domains),
    serviceAccountOperations(services.serviceAccounts),
    orgIdentityProviderOperations(
      services.orgIdentityProviders,
      services.testSignIn,
      config.baseUrl.startsWith('https:'),
    ),
    policyOperations(services.policies, services.admission),
    runtimeOperations(services.runtimeResolve),
  ] as const;
}

type Declared = ReturnType<typeof operationModules>[number] extends infer Module
  ? Module extends unknown
    ? keyof Module
    : never
  : never;
type Undeclared = Exclude<OperationId, Declared>;
// Fails to compile, naming the operation, when openapi.yaml has one no feature module declares.
const everyOperationDeclared: [Undeclared] extends [never] ? true : Undeclared = true;
void everyOperationDeclared;

/**
 * All feature modules' operations in one table. The compiler refuses a module that leaves an
 * operation of openapi.yaml undeclared (above) or declares one it lacks (`satisfies
 * OperationModule` in each module); an operation declared twice fails here, at start-up.
 */
export function buildOperationTable(services: Omit<Services, 'operations'>): OperationTable {
  const table: Partial<OperationTable> = {};
  for (const module of operationModules(services)) {
    for (const [operationId, spec] of Object.entries(module)) {
      if (operationId in table) throw new Error(`operation ${operationId} is declared twice`);
      (table as Record<string, unknown>)[operationId] = spec;
    }
  }
  return table as OperationTable;
}
