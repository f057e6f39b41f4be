import type { Services } from '../app/services.js';
import type { OperationModule, OrgContext } from '../http/operation-table.js';
import type { OperationId, Schema } from '../http/operation-types.js';
import { listedAnswer } from '../http/json-text.js';
import { sortedItemsOf } from '../shared/listed-text.js';
import { byCodeUnits, byName } from '../shared/order.js';
import { listOrder, pageOf } from '../shared/pagination.js';
import { toOrgMember } from './mapper.js';
import type { MemberCaller } from './service.js';

/** The organization the request addresses and the signed-in user making the change. */
const callerOf = ({ access, session }: Pick<OrgContext<OperationId>, 'access' | 'session'>): MemberCaller => ({
  organizationId: access.organization.id,
  userId: session.user.id,
});

type OrgMember = Schema<'OrgMember'>;

/** By display name as people read it, then by imOpenId, so the order is total. */
const memberOrder = listOrder((m: OrgMember) => [m.displayName, m.imOpenId], byName, byCodeUnits);

/** Organization members: list, add, change role, revoke. */
export function memberOperations({ members }: Services) {
  return {
    listMembers: {
      rule: 'orgAdmin',
      handle: async ({ access, query }) => {
        const text = await members.listText(access.organization.id);
        // The whole list is the database's text as it is, never decoded, parsed, sorted and
        // serialized again (100 members: ~20 % of the request's CPU); a page is cut from it sorted.
        if (query.limit === undefined && query.cursor === undefined)
          return listedAnswer(
            text,
            memberOrder,
            ['{"members":', ',"nextCursor":null}'],
            (sorted): Schema<'MemberList'> => ({ members: sorted, nextCursor: null }),
          );
        const { items, nextCursor } = pageOf(sortedItemsOf(text, memberOrder), query, memberOrder);
        return { members: items, nextCursor };
      },
    },

    addMember: {
      rule: 'orgAdmin',
      status: 201,
      handle: async (ctx) => toOrgMember(await members.add(callerOf(ctx), ctx.body)),
    },

    updateMemberRole: {
      rule: 'orgAdmin',
      handle: async (ctx) => toOrgMember(await members.changeRole(callerOf(ctx), ctx.params.userId, ctx.body.role)),
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
