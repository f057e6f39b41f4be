import type { OperationModule, OrgContext } from '../http/operation-table.js';
import type { OperationId, Schema } from '../api/types.js';
import { unmanagedProjectOf } from '../projects/managers.js';
import { pageOfListed } from '../shared/listed-text.js';
import { memberProjection } from './projection.js';
import type { MemberCaller, MemberEnd, MemberService } from './service.js';

/** The organization the request addresses and the signed-in user making the change. */
const callerOf = ({ access, session }: Pick<OrgContext<OperationId>, 'access' | 'session'>): MemberCaller => ({
  organizationId: access.organization.id,
  userId: session.user.id,
});

const { toApi } = memberProjection;

/** The answer of a membership that ended: what stopped and stays, and the projects left without a manager. */
const revoked = (
  { access }: Pick<OrgContext<OperationId>, 'access'>,
  userId: string,
  { departure, unmanaged }: MemberEnd,
): Schema<'MemberRevoked'> => ({
  revoked: true,
  userId,
  departure,
  unmanagedProjects: unmanaged.map((project) => unmanagedProjectOf(access.organization.slug, project)),
});

/** Organization members: list, add, change role, sign out everywhere, revoke, leave. */
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
        return revoked(ctx, ctx.params.userId, await members.revoke(callerOf(ctx), ctx.params.userId));
      },
    },

    leaveOrganization: {
      rule: 'member',
      async handle(ctx) {
        return revoked(ctx, ctx.session.user.id, await members.leave(callerOf(ctx)));
      },
    },

    getMemberDeparture: {
      rule: 'orgAdmin',
      handle: ({ access, params }) => members.departure(access.organization.id, params.userId),
    },
  } satisfies OperationModule;
}
