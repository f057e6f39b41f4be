import type { OperationModule } from '../http/operation-table.js';
import { setSignInCookie, signInCookie } from '../identity/sign-in-cookie.js';
import type { TestSignIn } from './test-sign-in.js';
import { orgProviderProjection } from './projection.js';
import type { OrgIdentityProviderService } from './service.js';

const { toApi: toProvider } = orgProviderProjection;

/** An organization's own identity providers. Org admins only. */
export function orgIdentityProviderOperations(
  providers: OrgIdentityProviderService,
  tests: TestSignIn,
  secureCookie: boolean,
) {
  return {
    testOrgIdentityProvider: {
      rule: 'orgAdmin',
      status: 201,
      async handle({ access, params, session, req, res }) {
        const started = await tests.start(
          access.organization.id,
          params.providerId,
          session.user.id,
          signInCookie(req),
        );
        setSignInCookie(res, started.browserToken, secureCookie);
        return { location: started.location.href };
      },
    },

    listOrgIdentityProviders: {
      rule: 'orgAdmin',
      async handle({ access, query }) {
        const listed = await providers.list(access.organization.id);
        const { items, nextCursor } = orgProviderProjection.pageOf(listed, query);
        return { identityProviders: items, nextCursor };
      },
    },

    createOrgIdentityProvider: {
      rule: 'orgAdmin',
      status: 201,
      handle: async ({ access, body }) => toProvider(await providers.create(access.organization, body)),
    },

    updateOrgIdentityProvider: {
      rule: 'orgAdmin',
      handle: async ({ access, params, body }) =>
        toProvider(await providers.update(access.organization.id, params.providerId, body)),
    },

    deleteOrgIdentityProvider: {
      rule: 'orgAdmin',
      status: 204,
      async handle({ access, params }) {
        await providers.delete(access.organization.id, params.providerId);
        return undefined;
      },
    },
  } satisfies OperationModule;
}
