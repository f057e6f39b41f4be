import { isOrgAdminRole } from '../auth/rules.js';
import type { OperationModule, OrgContext } from '../http/operation-table.js';
import type { OperationId } from '../api/types.js';
import { apiTokenProjection } from './projection.js';
import type { TokenCaller, ApiTokenService } from './service.js';

const { toApi: toApiToken } = apiTokenProjection;

const callerOf = ({ access, session }: Pick<OrgContext<OperationId>, 'access' | 'session'>): TokenCaller => ({
  organizationId: access.organization.id,
  userId: session.user.id,
  isOrgAdmin: isOrgAdminRole(access.role),
});

/** API tokens: create and rotate (shown once), list, revoke. Signed-in members only, never a token. */
export function apiTokenOperations(apiTokens: ApiTokenService) {
  return {
    createApiToken: {
      rule: 'member',
      status: 201,
      async handle(ctx) {
        const { record, token } = await apiTokens.create(callerOf(ctx), ctx.body);
        return { ...toApiToken(record), token };
      },
    },

    listApiTokens: {
      rule: 'member',
      async handle(ctx) {
        const listed = await apiTokens.list(callerOf(ctx), { serviceAccountId: ctx.query.serviceAccountId });
        const { items, nextCursor } = apiTokenProjection.pageOf(listed, ctx.query);
        return { tokens: items, nextCursor };
      },
    },

    revokeApiToken: {
      rule: 'member',
      handle: async (ctx) => toApiToken(await apiTokens.revoke(callerOf(ctx), ctx.params.tokenId)),
    },

    rotateApiToken: {
      rule: 'member',
      async handle(ctx) {
        const { record, token } = await apiTokens.rotate(callerOf(ctx), ctx.params.tokenId, ctx.body ?? {});
        return { ...toApiToken(record), token };
      },
    },
  } satisfies OperationModule;
}
