import type { Request, Response } from 'express';
import { drained } from '../http/drained.js';
import type { AuditLog } from './log.js';
import { auditEventProjection } from './projection.js';
import type { AuditFilters } from './store.js';

export const NDJSON = 'application/x-ndjson';

/** Events read per query while exporting: memory holds one such page whatever the window's size. */
const EXPORT_PAGE = 500;

/** Whether the caller asked for the export: `format=ndjson`, or NDJSON preferred to JSON by `Accept`. */
export function wantsExport(req: Request, format: string | undefined): boolean {
  if (format !== undefined) return format === 'ndjson';
  return req.accepts(['application/json', NDJSON]) === NDJSON;
}

/**
 * Streams every event of the window matching `filters` as NDJSON, newest first, one page of the
 * store at a time through the same cursor the API pages with, waiting for the socket to drain
 * between writes. A caller who hangs up ends the export at the next line.
 */
export async function streamExport(
  res: Response,
  auditLog: AuditLog,
  organizationId: string,
  filters: AuditFilters,
): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', `${NDJSON}; charset=utf-8`);
  res.setHeader('Content-Disposition', 'attachment; filename="audit-events.ndjson"');
  res.setHeader('Cache-Control', 'no-store');
  res.flushHeaders();
  let cursor: string | undefined;
  try {
    do {
      const page = await auditLog.list(organizationId, filters, { limit: EXPORT_PAGE, cursor });
      const lines = page.items.map((row) => `${JSON.stringify(auditEventProjection.toApi(row))}\n`).join('');
      if (res.destroyed) return;
      if (lines && !res.write(lines) && !(await drained(res))) return;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    res.end();
  } catch (err) {
    // The status line is sent: a failure can only cut the stream short, which the reader sees
    // as a body that does not end in a newline or a connection reset.
    res.destroy(err instanceof Error ? err : undefined);
    throw err;
  }
}
