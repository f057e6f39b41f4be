import type { OperationModule, OrgContext } from '../http/operation-table.js';
import type { OperationId, Schema } from '../api/types.js';
import { memberProjection } from '../members/projection.js';
import { invitationAt, invitationProjection } from './projection.js';
import type { AcceptedInvitation, InvitationCaller, InvitationService } from './service.js';
import type { LinkedInvitationRecord } from './store.js';

/** What the invitation operations use: their own service, the clock that says what has expired, the origin. */
export interface InvitationOperationDeps {
  invitations: InvitationService;
  clock: { now(): Date };
  baseUrl: string;
}

type Invitation = Schema<'Invitation'>;

const callerOf = ({ access, session }: Pick<OrgContext<OperationId>, 'access' | 'session'>): InvitationCaller => ({
  organizationId: access.organization.id,
  userId: session.user.id,
  isOwner: access.role === 'OWNER',
});

/** The link of an invitation: the web app's page that shows and accepts it. */
export const invitationUrl = (baseUrl: string, token: string): string => `${baseUrl}/invite/${token}`;

/** Invitations: the admins' create, list and revoke, and the invitee's look and accept. */
export function invitationOperations({ invitations, clock, baseUrl }: InvitationOperationDeps) {
  return {
    listInvitations: {
      rule: 'orgAdmin',
      async handle({ access, query }) {
        const { items, nextCursor } = await invitations.list(access.organization.id, query);
        return { invitations: items.map(invitationProjection.toApi), nextCursor };
      },
    },

    createInvitation: {
      rule: 'orgAdmin',
      status: 201,
      async handle(ctx) {
        const { invitation, token } = await invitations.create(callerOf(ctx), ctx.body);
        return { ...invitationAt(invitation, clock.now().toISOString()), url: invitationUrl(baseUrl, token) };
      },
    },

    revokeInvitation: {
      rule: 'orgAdmin',
      handle: async (ctx) =>
        invitationAt(await invitations.revoke(callerOf(ctx), ctx.params.invitationId), clock.now().toISOString()),
    },

    getInvitation: {
      rule: 'session',
      async handle({ params }) {
        const found = await invitations.preview(params.token);
        const invitation = invitationAt(found, clock.now().toISOString());
        const teams = await invitations.teamsGiven(found);
        return { ...previewOf(found, invitation), teams, status: invitation.status };
      },
    },

    acceptInvitation: {
      rule: 'session',
      handle: async ({ params, session }) =>
        toAccepted(await invitations.accept(session.user.id, { token: params.token })),
    },

    listMyInvitations: {
      rule: 'session',
      async handle({ session }) {
        const now = clock.now().toISOString();
        const addressed = await invitations.listAddressedTo(session.user.id);
        return {
          invitations: await Promise.all(
            addressed.map(async (found) => {
              const invitation = invitationAt(found, now);
              return { id: invitation.id, ...previewOf(found, invitation), teams: await invitations.teamsGiven(found) };
            }),
          ),
        };
      },
    },

    acceptMyInvitation: {
      rule: 'session',
      handle: async ({ params, session }) =>
        toAccepted(await invitations.accept(session.user.id, { id: params.invitationId })),
    },
  } satisfies OperationModule;
}

/** What an invitee is shown of an invitation: where to, as what, from whom, until when. */
const previewOf = (found: LinkedInvitationRecord, invitation: Invitation) => ({
  organization: { slug: found.organization_slug, name: found.organization_name },
  role: invitation.role,
  invitedBy: { displayName: invitation.createdBy.displayName },
  expiresAt: invitation.expiresAt,
});

const toAccepted = (accepted: AcceptedInvitation): Schema<'InvitationAccepted'> => ({
  organization: { slug: accepted.invitation.organization_slug, name: accepted.invitation.organization_name },
  member: memberProjection.toApi(accepted.member),
  teamIds: accepted.teamIds,
  skippedTeamIds: accepted.skippedTeamIds,
});
