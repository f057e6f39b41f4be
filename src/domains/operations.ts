import type { OperationModule } from '../http/operation-table.js';
import { domainProjection } from './projection.js';
import type { DomainService } from './service.js';

const { toApi: toDomain } = domainProjection;

/** The domains an organization owns, and their verification. Org admins only. */
export function domainOperations(domains: DomainService) {
  return {
    listDomains: {
      rule: 'orgAdmin',
      async handle({ access, query }) {
        const { items, nextCursor } = domainProjection.pageOf(await domains.list(access.organization.id), query);
        return { domains: items, nextCursor };
      },
    },

    addDomain: {
      rule: 'orgAdmin',
      status: 201,
      handle: async ({ access, body }) => toDomain(await domains.add(access.organization.id, body.domain)),
    },

    verifyDomain: {
      rule: 'orgAdmin',
      handle: async ({ access, params }) => toDomain(await domains.verify(access.organization.id, params.domainId)),
    },

    updateDomain: {
      rule: 'orgAdmin',
      handle: async ({ access, params, body }) =>
        toDomain(
          await domains.setEnforcement(access.organization.id, params.domainId, body.enforceSso?.providerId ?? null),
        ),
    },

    deleteDomain: {
      rule: 'orgAdmin',
      status: 204,
      async handle({ access, params }) {
        await domains.delete(access.organization.id, params.domainId);
        return undefined;
      },
    },
  } satisfies OperationModule;
}
