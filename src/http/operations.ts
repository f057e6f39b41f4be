import type { Services } from '../app/services.js';
import { accessOperations } from '../access/operations.js';
import { agentRoleOperations } from '../agents/operations.js';
import { capacityOperations } from '../capacity/operations.js';
import { connectionOperations } from '../connections/operations.js';
import { explorerOperations } from '../explorer/operations.js';
import { folderOperations } from '../folders/operations.js';
import { memberOperations } from '../members/operations.js';
import { organizationOperations } from '../orgs/operations.js';
import { projectOperations } from '../projects/operations.js';
import { sessionOperations } from '../session/operations.js';
import { skillOperations } from '../skills/operations.js';
import { teamOperations } from '../teams/operations.js';
import { usageOperations } from '../usage/operations.js';
import type { OperationModule, OperationTable } from './operation-table.js';
import { pendingOperations } from './pending-operations.js';

/**
 * All feature modules' operations, over the rules-only entries of operations not built yet.
 * A feature module may declare an operation once; a test checks the result covers
 * openapi.yaml exactly.
 */
export function buildOperationTable(services: Services): OperationTable {
  const modules: OperationModule[] = [
    sessionOperations(services),
    organizationOperations(services),
    folderOperations(services),
    projectOperations(services),
    explorerOperations(services),
    accessOperations(services),
    memberOperations(services),
    teamOperations(services),
    capacityOperations(services),
    usageOperations(services),
    connectionOperations(services),
    agentRoleOperations(services),
    skillOperations(services),
  ];
  const table: Partial<OperationTable> = {};
  for (const module of modules) {
    for (const [operationId, spec] of Object.entries(module)) {
      if (operationId in table) throw new Error(`operation ${operationId} is declared twice`);
      (table as Record<string, unknown>)[operationId] = spec;
    }
  }
  for (const [operationId, spec] of Object.entries(pendingOperations)) {
    if (operationId in table) throw new Error(`operation ${operationId} is built: remove it from pendingOperations`);
    (table as Record<string, unknown>)[operationId] = spec;
  }
  return table as OperationTable;
}
