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
  /** The provider people with an address here must sign in through; null: any. */
  enforce_sso_provider_id: string | null;
}

/** A verified domain whose organization requires sign-in through one provider. */
export interface EnforcedDomain {
  domain: string;
  organizationId: string;
  providerId: string;
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

  async setEnforcement(trx: Executor, id: string, providerId: string | null): Promise<void> {
    await trx('organization_domains').where({ id }).update({ enforce_sso_provider_id: providerId });
  }

  /** Which of `domains` some organization has verified and requires a provider for. */
  async enforcedAmong(db: Executor, domains: readonly string[]): Promise<EnforcedDomain[]> {
    if (domains.length === 0) return [];
    const rows = await db('organization_domains')
      .where({ status: 'verified' })
      .whereIn('domain', domains)
      .whereNotNull('enforce_sso_provider_id')
      .orderBy('domain')
      .select<{ domain: string; organization_id: string; enforce_sso_provider_id: string }[]>(
        'domain',
        'organization_id',
        'enforce_sso_provider_id',
      );
    return rows.map((row) => ({
      domain: row.domain,
      organizationId: row.organization_id,
      providerId: row.enforce_sso_provider_id,
    }));
  }

  /** Whether a verified domain requires the provider (which may then not be removed). */
  async enforcesProvider(db: Executor, providerId: string): Promise<string | undefined> {
    const row = await db('organization_domains')
      .where({ enforce_sso_provider_id: providerId })
      .first<{ domain: string } | undefined>('domain');
    return row?.domain;
  }

  /** The organization that verified the domain, if any, and the provider it requires. */
  async verifiedRow(db: Executor, domain: string): Promise<DomainRecord | undefined> {
    return db('organization_domains').where({ domain, status: 'verified' }).first<DomainRecord | undefined>();
  }

  async delete(trx: Executor, id: string): Promise<void> {
    await trx('organization_domains').where({ id }).delete();
  }
}
