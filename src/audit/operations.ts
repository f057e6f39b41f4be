import type { AuditLog } from './log.js';
import type { OperationModule } from '../http/operation-table.js';
import { auditEventProjection } from './projection.js';

const { toApi: toAuditEvent } = auditEventProjection;

/** The audit log, for org admins. */
export function auditOperations(auditLog: AuditLog) {
  return {
    listAuditEvents: {
      rule: 'orgAdmin',
      async handle({ access, query }) {
        const { limit = 100, cursor, ...filters } = query;
        const page = await auditLog.list(access.organization.id, filters, { limit, cursor });
        return { events: page.items.map(toAuditEvent), nextCursor: page.nextCursor };
      },
    },
  } satisfies OperationModule;
}
