import type { OperationModule } from '../http/operation-table.js';
import type { MyIdentityService } from './my-identities.js';

/** The caller's own sign-in identities (the profile page's "Connected sign-ins"). */
export function myIdentityOperations(identities: MyIdentityService) {
  return {
    listMyIdentities: {
      rule: 'session',
      handle: async ({ session }) => ({ identities: await identities.list(session.user.id) }),
    },

    removeMyIdentity: {
      rule: 'session',
      status: 204,
      async handle({ session, params }) {
        await identities.remove(session.user.id, params.identityId);
        return undefined;
      },
    },
  } satisfies OperationModule;
}
