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
import type { OperationModule, OperationTable } from './operation-table.js';

/**
 * All feature modules' operations. A feature module may declare an operation once; the
 * compiler refuses a table that leaves one out, and a test checks it covers openapi.yaml.
 */
export function buildOperationTable(services: Services): OperationTable {
  const modules: OperationModule[] = [
    sessionOperations(services),
    organizationOperations(services),
    folderOperations(services),
    projectOperations(services),
    explorerOperations(services),
    teamAccessOperations(services),
    memberOperations(services),
    teamOperations(services),
    capacityOperations(services),
    usageOperations(services),
    connectionOperations(services),
    agentRoleOperations(services),
    libraryOperations(services),
    skillOperations(services),
    apiTokenOperations(services),
    auditOperations(services),
  ];
  const table: Partial<OperationTable> = {};
  for (const module of modules) {
    for (const [operationId, spec] of Object.entries(module)) {
      if (operationId in table) throw new Error(`operation ${operationId} is declared twice`);
      (table as Record<string, unknown>)[operationId] = spec;
    }
  }
  return table as OperationTable;
}
