import type { ConnectionService } from './service.js';
import type { OperationModule } from '../http/operation-table.js';
import {
  capabilityConnectionProjection,
  providerConnectionProjection,
  toCapabilityConnectionRow,
  toChatApplicationConnection,
  toProviderConnectionRow,
} from './projection.js';

/** Provider, chat-application and external-capability connections; secrets go in, never out. */
export function connectionOperations(connections: ConnectionService) {
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
      handle: async ({ access }) => {
        const { items } = capabilityConnectionProjection.pageOf(
          await connections.listCapabilities(access.organization.id),
          {},
        );
        return { connections: items };
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
