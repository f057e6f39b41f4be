import type { ConnectionService } from './service.js';
import { type AdmissionService, runQuery } from '../policies/admission.js';
import type { OperationModule } from '../http/operation-table.js';
import {
  capabilityConnectionProjection,
  providerConnectionProjection,
  toCapabilityConnectionRow,
  toChatApplicationConnection,
  toProviderConnectionRow,
} from './projection.js';

/** Provider, chat-application and external-capability connections; secrets go in, never out. */
export function connectionOperations(connections: ConnectionService, admission: AdmissionService) {
  return {
    listProviderConnections: {
      rule: 'orgAdmin',
      handle: async ({ access }) => {
        const { items } = providerConnectionProjection.pageOf(
          await connections.listProviders(access.organization.id),
          {},
        );
        return { connections: items };
      },
    },

    rotateProviderConnection: {
      rule: 'orgAdmin',
      async handle({ access, params, body }) {
        const { connection } = await connections.rotateProvider(
          access.organization.id,
          params.providerId,
          body,
          'organization',
        );
        return toProviderConnectionRow(connection);
      },
    },

    disableProviderConnection: {
      rule: 'orgAdmin',
      handle: async ({ access, params }) =>
        toProviderConnectionRow(await connections.disableProvider(access.organization.id, params.providerId)),
    },

    listCapabilityConnections: {
      rule: 'orgAdmin',
      handle: async ({ access, query }) => {
        const { items } = capabilityConnectionProjection.pageOf(
          await connections.listCapabilities(access.organization.id),
          {},
        );
        const run = runQuery(query);
        if (!run) return { connections: items };
        // Admission's own answer for a run asking for each capability.
        const answers = await admission.capabilityList(
          access.organization.id,
          run.projectId,
          run.initiatedBy,
          items.map((c) => c.capabilityId),
        );
        return {
          connections: items.map((c) => {
            const reasons = answers.get(c.capabilityId) ?? [];
            return { ...c, allowed: reasons.length === 0, reasons };
          }),
        };
      },
    },

    putCapabilityConnection: {
      rule: 'orgAdmin',
      handle: async ({ access, params, body }) =>
        toCapabilityConnectionRow(
          (await connections.putCapability(access.organization.id, params.capabilityId, body)).connection,
        ),
    },

    disableCapabilityConnection: {
      rule: 'orgAdmin',
      handle: async ({ access, params }) =>
        toCapabilityConnectionRow(await connections.disableCapability(access.organization.id, params.capabilityId)),
    },

    getChatApplicationConnection: {
      rule: 'orgAdmin',
      async handle({ access }) {
        const connection = await connections.getChatApplication(access.organization.id);
        return { connection: connection ? toChatApplicationConnection(connection) : null };
      },
    },

    putChatApplicationConnection: {
      rule: 'orgAdmin',
      handle: async ({ access, body }) =>
        toChatApplicationConnection((await connections.putChatApplication(access.organization.id, body)).connection),
    },

    disableChatApplicationConnection: {
      rule: 'orgAdmin',
      handle: async ({ access }) =>
        toChatApplicationConnection(await connections.disableChatApplication(access.organization.id)),
    },
  } satisfies OperationModule;
}
