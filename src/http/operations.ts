import type { Services } from '../app/services.js';
import { agentRoleOperations } from '../agents/operations.js';
import { apiTokenOperations } from '../api-tokens/operations.js';
import { auditOperations } from '../audit/operations.js';
import { capacityOperations } from '../capacity/operations.js';
import { connectionOperations } from '../connections/operations.js';
import { explorerOperations } from '../explorer/operations.js';
import { folderOperations } from '../folders/operations.js';
import { libraryOperations } from '../library/operations.js';
import { memberOperations } from '../members/operations.js';
import { organizationOperations } from '../orgs/operations.js';
import { projectOperations } from '../projects/operations.js';
import { teamAccessOperations } from '../projects/team-access-operations.js';
import { sessionOperations } from '../session/operations.js';
import { skillOperations } from '../skills/operations.js';
import { teamOperations } from '../teams/operations.js';
import { usageOperations } from '../usage/operations.js';
import { signInOperations } from '../identity/operations.js';
import { invitationOperations } from '../invitations/operations.js';
import type { OperationTable } from './operation-table.js';
import type { OperationId } from './operation-types.js';

const signInModule = (services: Services) =>
  signInOperations({
    signIn: services.signIn,
    sessions: services.sessions,
    clock: services.clock,
    baseUrl: services.config.baseUrl,
  });

const invitationModule = (services: Services) =>
  invitationOperations({ invitations: services.invitations, clock: services.clock, baseUrl: services.config.baseUrl });

/** Every feature module: each declares some operations, none twice. */
const MODULES = [
  sessionOperations,
  organizationOperations,
  folderOperations,
  projectOperations,
  explorerOperations,
  teamAccessOperations,
  memberOperations,
  teamOperations,
  capacityOperations,
  usageOperations,
  connectionOperations,
  agentRoleOperations,
  libraryOperations,
  skillOperations,
  apiTokenOperations,
  auditOperations,
  signInModule,
  invitationModule,
] as const;

type DeclaredBy<M> = M extends (services: Services) => infer Module ? keyof Module : never;
type Undeclared = Exclude<OperationId, DeclaredBy<(typeof MODULES)[number]>>;
// Fails to compile, naming the operation, when openapi.yaml has one no feature module declares.
const everyOperationDeclared: [Undeclared] extends [never] ? true : Undeclared = true;
void everyOperationDeclared;

/**
 * All feature modules' operations in one table. The compiler refuses a module that leaves an
 * operation of openapi.yaml undeclared (above) or declares one it lacks (`satisfies
 * OperationModule` in each module); an operation declared twice fails here, at start-up.
 */
export function buildOperationTable(services: Services): OperationTable {
  const table: Partial<OperationTable> = {};
  for (const module of MODULES.map((operationsOf) => operationsOf(services))) {
    for (const [operationId, spec] of Object.entries(module)) {
      if (operationId in table) throw new Error(`operation ${operationId} is declared twice`);
      (table as Record<string, unknown>)[operationId] = spec;
    }
  }
  return table as OperationTable;
}
