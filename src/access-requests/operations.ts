import type { OperationId } from '../api/types.js';
import type { OperationModule, OrgContext } from '../http/operation-table.js';
import type { AccessRequestCaller, AccessRequestService } from './service.js';

const callerOf = ({ access, session }: Pick<OrgContext<OperationId>, 'access' | 'session'>): AccessRequestCaller => ({
  access,
  userId: session.user.id,
});

/** Access requests on a project, and the person's own across their organizations. */
export function accessRequestOperations(requests: AccessRequestService) {
  return {
    listAccessRequests: {
      rule: 'member',
      async handle(ctx) {
        const listed = await requests.list(callerOf(ctx), ctx.params.projectId);
        return {
          requests: listed.requests,
          approvers: listed.approvers.people.map((person) => ({
            userId: person.user_id,
            displayName: person.display_name,
            imOpenId: person.im_open_id,
          })),
          approversAre: listed.approvers.are,
          canDecide: listed.canDecide,
        };
      },
    },

    createAccessRequest: {
      rule: 'member',
      status: 201,
      handle: (ctx) => requests.create(callerOf(ctx), ctx.params.projectId, ctx.body),
    },

    approveAccessRequest: {
      rule: 'member',
      handle: (ctx) => requests.approve(callerOf(ctx), ctx.params.projectId, ctx.params.requestId, ctx.body?.level),
    },

    denyAccessRequest: {
      rule: 'member',
      handle: (ctx) => requests.deny(callerOf(ctx), ctx.params.projectId, ctx.params.requestId),
    },

    withdrawAccessRequest: {
      rule: 'member',
      handle: (ctx) => requests.withdraw(callerOf(ctx), ctx.params.projectId, ctx.params.requestId),
    },

    listMyAccessRequests: {
      rule: 'session',
      handle: async ({ session }) => ({ requests: await requests.listMine(session.user.id) }),
    },
  } satisfies OperationModule;
}
