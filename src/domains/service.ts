import { randomUUID } from 'node:crypto';
import { recordChange } from '../audit/trail.js';
import { newToken } from '../auth/tokens.js';
import type { Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { badRequestAt, conflict, notFound, unprocessable } from '../errors/api-error.js';
import type { OrganizationStore } from '../orgs/store.js';
import type { TxtLookup } from './dns.js';
import { type DomainName, normalizeDomain } from './domain-name.js';
import { domainProjection, verificationRecordName, verificationValue } from './projection.js';
import type { DomainRecord, DomainStore } from './store.js';
import { isUniqueViolation } from '../db/unique-violation.js';

/** Which of `domains` (kept spellings) the organization has verified; what other areas ask. */
export type VerifiedDomains = (
  db: Executor,
  organizationId: string,
  domains: readonly string[],
) => Promise<Set<string>>;

/** The most domains one organization may add, pending and verified together. */
export const MAX_DOMAINS = 100;

const domainNotFound = (id: string) => notFound('domain_not_found', `No domain with the id "${id}".`);
const claimed = (domain: string) =>
  conflict('domain_claimed', `Another organization has verified ${domain}; a domain belongs to one at a time.`);

/**
 * Domains an organization owns. An admin adds a domain and is given a token; the domain becomes
 * the organization's (`verified`) once a DNS TXT record at `_hub-verification.<domain>` carries it,
 * or when the operator binds it from the console. A verified domain belongs to one organization at
 * a time, which the database's unique index holds even against two verifications at once. What a
 * verified domain allows — automatic membership and invitations bound to an address there — asks
 * `verifiedAmong`.
 */
export class DomainService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: DomainStore,
    private readonly orgs: OrganizationStore,
    private readonly lookupTxt: TxtLookup,
    private readonly clock: Clock,
    /** Whether the organization may require this provider: its own, or one of the operator's, enabled. */
    private readonly providerUsable: (db: Executor, organizationId: string, providerId: string) => Promise<boolean>,
  ) {}

  list(organizationId: string): Promise<DomainRecord[]> {
    return this.store.listOf(this.uow.executor, organizationId);
  }

  /** Adds a pending domain with a fresh token; refused when another organization has it verified. */
  async add(organizationId: string, raw: string): Promise<DomainRecord> {
    const domain = checkedDomain(raw, '/body/domain');
    return this.uow.run(async (trx) => {
      if ((await this.store.count(trx, organizationId)) >= MAX_DOMAINS) {
        throw conflict('capacity_exceeded', `An organization has at most ${MAX_DOMAINS} domains.`);
      }
      if (await this.store.findByDomain(trx, organizationId, domain)) {
        throw conflict('domain_exists', `This organization has already added ${domain}.`);
      }
      const owner = await this.store.verifiedOwner(trx, domain);
      if (owner !== undefined) throw claimed(domain);
      const row = this.newRow(organizationId, domain);
      await this.store.insert(trx, row);
      await this.record(trx, null, row);
      return row;
    });
  }

  /**
   * Looks the TXT record up and, when one carries the token, marks the domain verified. The lookup
   * runs outside any transaction (it may take seconds); the claim is decided inside one.
   */
  async verify(organizationId: string, id: string): Promise<DomainRecord> {
    const found = await this.store.find(this.uow.executor, organizationId, id);
    if (!found) throw domainNotFound(id);
    if (found.status === 'verified') return found;
    const name = verificationRecordName(found.domain);
    const expected = verificationValue(found.token);
    const answer = await this.lookupTxt(name);
    if ('failure' in answer || !answer.records.includes(expected)) {
      const why =
        'failure' in answer
          ? answer.failure
          : answer.records.length
            ? `its TXT records (${answer.records.length}) do not include "${expected}"`
            : 'the name has no TXT record';
      throw unprocessable('domain_verification_failed', `${found.domain} is not verified yet: at ${name}, ${why}.`);
    }
    return this.claim(organizationId, found.domain as DomainName);
  }

  /** The operator's binding (`hub domain verify`): the domain verified for the organization without DNS. */
  bind(organizationId: string, raw: string): Promise<DomainRecord> {
    return this.claim(organizationId, checkedDomain(raw, 'domain'));
  }

  /**
   * Removes the domain. A verified one the automatic-membership rule names is refused: the rule
   * would go on admitting people of a domain the organization no longer claims; the admin takes
   * the domain out of the rule first, knowingly.
   */
  async delete(organizationId: string, id: string): Promise<void> {
    await this.uow.run(async (trx) => {
      const found = await this.store.find(trx, organizationId, id);
      if (!found) throw domainNotFound(id);
      const rule = (await this.orgs.getSettings(trx, organizationId, { lock: true })).auto_join;
      if (found.status === 'verified' && rule?.emailDomains.includes(found.domain)) {
        throw conflict(
          'domain_in_use',
          `The automatic-membership rule admits people of ${found.domain}; remove the domain from the rule first.`,
        );
      }
      await this.store.delete(trx, id);
      await this.record(trx, found, null);
    });
  }

  /**
   * Requires (or, with null, stops requiring) sign-in through one provider for people with an
   * address at the domain. Only a verified domain, and only a provider of this organization or
   * of the operator that is enabled.
   */
  async setEnforcement(organizationId: string, id: string, providerId: string | null): Promise<DomainRecord> {
    return this.uow.run(async (trx) => {
      const found = await this.store.find(trx, organizationId, id);
      if (!found) throw domainNotFound(id);
      if (providerId !== null && found.status !== 'verified') {
        throw unprocessable(
          'domain_not_verified',
          `${found.domain} is not verified yet; verify it before requiring a sign-in for it.`,
        );
      }
      if (providerId !== null && !(await this.providerUsable(trx, organizationId, providerId))) {
        throw notFound(
          'identity_provider_not_found',
          `No enabled identity provider "${providerId}" of this organization or of the hub.`,
        );
      }
      if (found.enforce_sso_provider_id === providerId) return found;
      await this.store.setEnforcement(trx, id, providerId);
      const after = (await this.store.find(trx, organizationId, id))!;
      await this.record(trx, found, after);
      return after;
    });
  }

  readonly verifiedAmong: VerifiedDomains = (db, organizationId, domains) =>
    this.store.verifiedAmong(db, organizationId, domains);

  /** Marks the organization's domain verified (adding it first when it has none), audited. */
  private async claim(organizationId: string, domain: DomainName): Promise<DomainRecord> {
    try {
      return await this.uow.run(async (trx) => {
        const owner = await this.store.verifiedOwner(trx, domain);
        if (owner !== undefined && owner !== organizationId) throw claimed(domain);
        const existing = await this.store.findByDomain(trx, organizationId, domain);
        if (existing?.status === 'verified') return existing;
        const before = existing ?? null;
        const row = existing ?? this.newRow(organizationId, domain);
        if (!existing) await this.store.insert(trx, row);
        await this.store.markVerified(trx, row.id, this.clock.now().toISOString());
        const after = (await this.store.find(trx, organizationId, row.id))!;
        await this.record(trx, before, after);
        return after;
      });
    } catch (err) {
      // Another organization's verification of the same domain committed first.
      if (isUniqueViolation(err)) throw claimed(domain);
      throw err;
    }
  }

  private newRow(organizationId: string, domain: DomainName): DomainRecord {
    return {
      id: randomUUID(),
      organization_id: organizationId,
      domain,
      status: 'pending',
      token: newToken(),
      verified_at: null,
      created_at: this.clock.now().toISOString(),
      enforce_sso_provider_id: null,
    };
  }

  private record(trx: Executor, before: DomainRecord | null, after: DomainRecord | null) {
    const target = (after ?? before)!;
    return recordChange(trx, {
      organizationId: target.organization_id,
      target: { type: 'domain', id: target.id, label: target.domain },
      before: before && domainProjection.toApi(before),
      after: after && domainProjection.toApi(after),
    });
  }
}

/** The domain in its kept spelling, or 400 naming where the request gave it. */
function checkedDomain(raw: string, path: string): DomainName {
  const result = normalizeDomain(raw);
  if ('problem' in result) throw badRequestAt({ path, message: `"${raw.slice(0, 300)}" ${result.problem}` });
  return result.domain;
}

/**
 * Refuses, with 422 `domain_not_verified` naming them, any of `domains` the organization has not
 * verified: what automatic membership and email-bound invitations require before they trust an
 * address at a domain.
 */
export async function requireVerifiedDomains(
  verified: VerifiedDomains,
  db: Executor,
  organizationId: string,
  domains: readonly string[],
  use: string,
): Promise<void> {
  const found = await verified(db, organizationId, domains);
  const missing = domains.filter((domain) => !found.has(domain));
  if (missing.length) {
    throw unprocessable(
      'domain_not_verified',
      `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not a verified domain of this organization; ` +
        `verify ${missing.length === 1 ? 'it' : 'them'} under Domains before ${use}.`,
    );
  }
}
