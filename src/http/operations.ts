import type { Services } from '../app/services.js';
import { organizationOperations } from '../orgs/operations.js';
import { sessionOperations } from '../session/operations.js';
import type { OperationModule, OperationTable } from './operation-table.js';
import { pendingOperations } from './pending-operations.js';

/** All feature modules' operations, checked to cover openapi.yaml exactly once each. */
export function buildOperationTable(services: Services): OperationTable {
  const modules: OperationModule[] = [sessionOperations(services), organizationOperations(services), pendingOperations];
  const table: Partial<OperationTable> = {};
  for (const module of modules) {
    for (const [operationId, spec] of Object.entries(module)) {
      if (operationId in table) throw new Error(`operation ${operationId} is declared twice`);
      (table as Record<string, unknown>)[operationId] = spec;
    }
  }
  return table as OperationTable;
}
