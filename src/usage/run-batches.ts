import { createHash } from 'node:crypto';
import type { Clock } from '../config/clock.js';
import { DAY_MS } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { unprocessable } from '../errors/api-error.js';
import { IngestError } from './ingest-tally.js';
import { runsOfItems, runsOfText } from './run-source.js';
import type { IngestResult, UsageService } from './service.js';

/** How long an `Idempotency-Key` answers its batch again. */
export const IDEMPOTENCY_WINDOW_MS = DAY_MS;

/** A batch of runs as the request carried it: NDJSON text, or a JSON array already parsed. */
export type RunBatch = string | readonly unknown[];

interface KeyRecord {
  body_hash: string;
  answer: string;
  created_at: string;
}

const TABLE = 'usage_idempotency_keys';

/**
 * `ingestUsageRuns`: a batch of runs from the agent runtime, loaded by the very ingest
 * `hub usage ingest` runs (UsageService.ingest: the same checks, one transaction, nothing written
 * on any error), with an optional `Idempotency-Key`. A key is remembered with the SHA-256 of its
 * batch and the answer, in the ingest's own transaction, so the answer is stored exactly when the
 * runs are: the same key with the same body within the window answers the stored answer without
 * storing anything, with another body 422 `idempotency_key_reused`. Of two identical batches sent
 * at once, the second to commit meets the first's key and is rolled back, then answered the same.
 */
export class UsageRunBatches {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly usage: UsageService,
    private readonly clock: Clock,
  ) {}

  async ingest(organizationId: string, batch: RunBatch, idempotencyKey?: string): Promise<IngestResult> {
    if (idempotencyKey === undefined) return this.load(organizationId, batch);
    const bodyHash = hashOf(batch);
    const stored = await this.storedAnswer(this.uow.executor, organizationId, idempotencyKey, bodyHash);
    if (stored) return stored;
    try {
      return await this.load(organizationId, batch, async (trx, result) => {
        const now = this.clock.now();
        // Keys past the window are the organization's to forget: swept here, where one may be replaced.
        await trx(TABLE)
          .where({ organization_id: organizationId })
          .where('created_at', '<=', windowStart(now))
          .delete();
        await trx(TABLE).insert({
          organization_id: organizationId,
          idempotency_key: idempotencyKey,
          body_hash: bodyHash,
          answer: JSON.stringify(result),
          created_at: now.toISOString(),
        });
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const raced = await this.storedAnswer(this.uow.executor, organizationId, idempotencyKey, bodyHash);
      if (raced) return raced;
      throw err;
    }
  }

  private async load(
    organizationId: string,
    batch: RunBatch,
    inTransaction?: (trx: Executor, result: IngestResult) => Promise<void>,
  ): Promise<IngestResult> {
    const runs = typeof batch === 'string' ? runsOfText(batch) : runsOfItems(batch);
    try {
      return await this.usage.ingest(organizationId, runs, undefined, undefined, inTransaction);
    } catch (err) {
      if (err instanceof IngestError) throw unprocessable('invalid_usage_run', err.message);
      throw err;
    }
  }

  /** The answer a key gave within the window; 422 when it came with another body. */
  private async storedAnswer(
    db: Executor,
    organizationId: string,
    key: string,
    bodyHash: string,
  ): Promise<IngestResult | undefined> {
    const row = (await db(TABLE)
      .where({ organization_id: organizationId, idempotency_key: key })
      .where('created_at', '>', windowStart(this.clock.now()))
      .first('body_hash', 'answer', 'created_at')) as KeyRecord | undefined;
    if (!row) return undefined;
    if (row.body_hash !== bodyHash) {
      throw unprocessable(
        'idempotency_key_reused',
        `The Idempotency-Key "${key}" was used at ${row.created_at} for another batch; send a new key for a new batch.`,
      );
    }
    return JSON.parse(row.answer) as IngestResult;
  }
}

const windowStart = (now: Date): string => new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString();

/** The batch as sent: its NDJSON text, or its JSON array (taken before the ingest normalizes times). */
const hashOf = (batch: RunBatch): string =>
  createHash('sha256')
    .update(typeof batch === 'string' ? `ndjson\n${batch}` : `json\n${JSON.stringify(batch)}`)
    .digest('hex');
