import type { TestHub } from './test-hub.js';

/**
 * Makes `domain` a verified domain of the organization as the operator's `hub domain verify`
 * does, first taking it from whichever organization had it: tests that invite or admit people of
 * one domain from several organizations in turn (a domain belongs to one at a time).
 */
export async function ownDomain(hub: TestHub, organizationId: string, domain: string): Promise<void> {
  await hub.services
    .db('organization_domains')
    .where({ domain })
    .whereNot({ organization_id: organizationId })
    .delete();
  await hub.services.domains.bind(organizationId, domain);
}
