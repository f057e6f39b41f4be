import type { Executor } from '../db/unit-of-work.js';
import type { DomainName } from './domain-name.js';

export type DomainStatus = 'pending' | 'verified';

/** A domain an organization added, as stored. */
export interface DomainRecord {
  id: string;
  organization_id: string;
  domain: string;
  status: DomainStatus;
  token: string;
  verified_at: string | null;
  created_at: string;
}

/** The domains organizations added. Owns every statement on `organization_domains`. */
export class DomainStore {
  async insert(trx: Executor, row: DomainRecord): Promise<void> {
    await trx('organization_domains').insert(row);
  }

  listOf(db: Executor, organizationId: string): Promise<DomainRecord[]> {
    return db('organization_domains').where({ organization_id: organizationId }).select<DomainRecord[]>('*');
  }

  async count(db: Executor, organizationId: string): Promise<number> {
    const row = await db('organization_domains')
      .where({ organization_id: organizationId })
      .count<{ n: number | string }[]>({ n: '*' })
      .first();
    return Number(row?.n ?? 0);
  }

  find(db: Executor, organizationId: string, id: string): Promise<DomainRecord | undefined> {
    return db('organization_domains').where({ organization_id: organizationId, id }).first<DomainRecord | undefined>();
  }

  findByDomain(db: Executor, organizationId: string, domain: DomainName): Promise<DomainRecord | undefined> {
    return db('organization_domains')
      .where({ organization_id: organizationId, domain })
      .first<DomainRecord | undefined>();
  }

  /** The organization that has the domain verified, if any (one at most: a unique index). */
  async verifiedOwner(db: Executor, domain: string): Promise<string | undefined> {
    const row = await db('organization_domains')
      .where({ domain, status: 'verified' })
      .first<{ organization_id: string } | undefined>('organization_id');
    return row?.organization_id;
  }

  /** Which of `domains` the organization has verified. */
  async verifiedAmong(db: Executor, organizationId: string, domains: readonly string[]): Promise<Set<string>> {
    if (domains.length === 0) return new Set();
    const rows = await db('organization_domains')
      .where({ organization_id: organizationId, status: 'verified' })
      .whereIn('domain', domains)
      .select<{ domain: string }[]>('domain');
    return new Set(rows.map((row) => row.domain));
  }

  async markVerified(trx: Executor, id: string, at: string): Promise<void> {
    await trx('organization_domains').where({ id }).update({ status: 'verified', verified_at: at });
  }

  async delete(trx: Executor, id: string): Promise<void> {
    await trx('organization_domains').where({ id }).delete();
  }
}
