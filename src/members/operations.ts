import type { OperationModule, OrgContext } from '../http/operation-table.js';
import type { OperationId } from '../api/types.js';
import { pageOfListed } from '../shared/listed-text.js';
import { memberProjection } from './projection.js';
import type { MemberCaller, MemberService } from './service.js';

/** The organization the request addresses and the signed-in user making the change. */
const callerOf = ({ access, session }: Pick<OrgContext<OperationId>, 'access' | 'session'>): MemberCaller => ({
  organizationId: access.organization.id,
  userId: session.user.id,
});

const { toApi } = memberProjection;

/** Organization members: list, add, change role, sign out everywhere, revoke. */
export function memberOperations(members: MemberService) {
  return {
    listMembers: {
      rule: 'orgAdmin',
      handle: async ({ access, query }) => {
        const { items, nextCursor } = pageOfListed(await members.list(access.organization.id), query);
        return { members: items, nextCursor };
      },
    },

    addMember: {
      rule: 'orgAdmin',
      status: 201,
      handle: async (ctx) => toApi(await members.add(callerOf(ctx), ctx.body)),
    },

    updateMemberRole: {
      rule: 'orgAdmin',
      handle: async (ctx) => toApi(await members.changeRole(callerOf(ctx), ctx.params.userId, ctx.body.role)),
    },

    signOutMember: {
      rule: 'orgAdmin',
      handle: async (ctx) => ({ ended: await members.signOut(callerOf(ctx), ctx.params.userId) }),
    },

    revokeMember: {
      rule: 'orgAdmin',
      async handle(ctx) {
        await members.revoke(callerOf(ctx), ctx.params.userId);
        return { revoked: true, userId: ctx.params.userId };
      },
    },
  } satisfies OperationModule;
}
