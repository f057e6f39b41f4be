import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';
import type { DomainRecord } from './store.js';

/** The name of the TXT record that proves a domain: beneath the domain, so only its owner can publish it. */
export const verificationRecordName = (domain: string) => `_hub-verification.${domain}`;
/** What the TXT record must say. */
export const verificationValue = (token: string) => `hub-verification=${token}`;

/** A domain as the API shows it; by domain name (unique within an organization). */
export const domainProjection = projection<DomainRecord, Schema<'Domain'>>()({
  fields: {
    id: 'id',
    domain: 'domain',
    status: 'status',
    verification: {
      from: (row) => ({
        type: 'dns-txt' as const,
        name: verificationRecordName(row.domain),
        value: verificationValue(row.token),
      }),
    },
    verifiedAt: 'verified_at',
    enforceSso: {
      from: (row) => (row.enforce_sso_provider_id ? { providerId: row.enforce_sso_provider_id } : null),
    },
    createdAt: 'created_at',
  },
  order: [{ column: 'domain', by: 'codeUnits' }],
});
