import type { OperationModule } from './operation-table.js';

/**
 * Operations whose handlers are not built yet. Each already declares its rule, so the caller
 * is authenticated and authorized before the 501 `not_implemented` answer. An entry moves to
 * its feature module's operations when the handler lands; this table shrinks to empty.
 */
export const pendingOperations: OperationModule = {};
