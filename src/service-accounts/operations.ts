import type { OperationModule, OrgContext } from '../http/operation-table.js';
import type { OperationId } from '../api/types.js';
import { serviceAccountProjection } from './projection.js';
import type { ServiceAccountCaller, ServiceAccountService } from './service.js';

const callerOf = ({ access, session }: Pick<OrgContext<OperationId>, 'access' | 'session'>): ServiceAccountCaller => ({
  organizationId: access.organization.id,
  userId: session.user.id,
});

const { toApi } = serviceAccountProjection;

/** Service accounts: create, list, get, change, disable and enable, delete. Org admins only. */
export function serviceAccountOperations(accounts: ServiceAccountService) {
  return {
    listServiceAccounts: {
      rule: 'orgAdmin',
      handle: async ({ access }) => ({
        serviceAccounts: serviceAccountProjection.order.sorted(
          (await accounts.list(access.organization.id)).map(toApi),
        ),
      }),
    },

    createServiceAccount: {
      rule: 'orgAdmin',
      status: 201,
      handle: async (ctx) => toApi(await accounts.create(callerOf(ctx), ctx.body)),
    },

    getServiceAccount: {
      rule: 'orgAdmin',
      handle: async ({ access, params }) => toApi(await accounts.get(access.organization.id, params.serviceAccountId)),
    },

    updateServiceAccount: {
      rule: 'orgAdmin',
      handle: async (ctx) => toApi(await accounts.update(callerOf(ctx), ctx.params.serviceAccountId, ctx.body)),
    },

    disableServiceAccount: {
      rule: 'orgAdmin',
      handle: async (ctx) => toApi(await accounts.setDisabled(callerOf(ctx), ctx.params.serviceAccountId, true)),
    },

    enableServiceAccount: {
      rule: 'orgAdmin',
      handle: async (ctx) => toApi(await accounts.setDisabled(callerOf(ctx), ctx.params.serviceAccountId, false)),
    },

    deleteServiceAccount: {
      rule: 'orgAdmin',
      status: 204,
      async handle(ctx) {
        await accounts.delete(callerOf(ctx), ctx.params.serviceAccountId);
        return undefined;
      },
    },
  } satisfies OperationModule;
}
