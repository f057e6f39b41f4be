import type { UnitOfWork } from '../db/unit-of-work.js';
import { decodeCursor, type Page, pageOfRows } from '../shared/pagination.js';
import { type AuditEventRecord, auditEventProjection } from './projection.js';
import type { AuditFilters, AuditStore } from './store.js';

/** Reads the audit log a page at a time, newest first. */
export class AuditLog {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: AuditStore,
  ) {}

  /**
   * One page of events matching `filters`. The cursor holds the `seq` of the last event shown:
   * events written meanwhile have higher numbers and never push a page's events around.
   */
  async list(
    organizationId: string,
    filters: AuditFilters,
    page: { limit: number; cursor?: string | undefined },
  ): Promise<Page<AuditEventRecord>> {
    const beforeSeq = page.cursor === undefined ? undefined : Number(decodeCursor(page.cursor, 1)[0]);
    // Stored times are UTC (`…Z`) and compared as text: a window given with an offset is read as
    // the same instants in UTC.
    const window = { ...filters, from: utc(filters.from), to: utc(filters.to) };
    const rows = await this.store.list(this.uow.executor, organizationId, window, page.limit + 1, beforeSeq);
    return pageOfRows(rows, page.limit, auditEventProjection.keyOfRow);
  }
}

const utc = (time: string | undefined) => (time === undefined ? undefined : new Date(time).toISOString());
