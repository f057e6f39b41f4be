import type { AuditLog } from './log.js';
import type { OperationModule } from '../http/operation-table.js';
import { streamExport, wantsExport } from './export.js';
import { auditEventProjection } from './projection.js';

const { toApi: toAuditEvent } = auditEventProjection;

/** The audit log, for org admins: a page as JSON, or the whole filtered window as NDJSON. */
export function auditOperations(auditLog: AuditLog) {
  return {
    listAuditEvents: {
      rule: 'orgAdmin',
      async handle({ access, query, req, res }) {
        const { limit = 100, cursor, format, ...filters } = query;
        if (wantsExport(req, format)) {
          await streamExport(res, auditLog, access.organization.id, filters);
          // The answer is sent; the router sends nothing more once headers are out.
          return { events: [], nextCursor: null };
        }
        const { items, nextCursor } = await auditLog.list(access.organization.id, filters, { limit, cursor });
        return { events: items.map(toAuditEvent), nextCursor };
      },
    },
  } satisfies OperationModule;
}
