import type { Services } from '../app/services.js';
import type { OperationModule } from '../http/operation-table.js';
import type { Schema } from '../http/operation-types.js';
import type { ChatApplicationConnectionRecord, ProviderConnectionRecord } from './store.js';

export const toProviderConnectionRow = (c: ProviderConnectionRecord): Schema<'ProviderConnectionRow'> => ({
  id: c.id,
  providerId: c.provider_id,
  mode: c.mode,
  status: c.status,
  activeVersion: c.active_version,
  keyId: c.key_id,
  createdAt: c.created_at,
  updatedAt: c.updated_at,
});

export const toChatApplicationConnection = (c: ChatApplicationConnectionRecord): Schema<'ChatApplicationConnection'> => ({
  id: c.id,
  appFingerprint: appFingerprint(c.app_id),
  status: c.status,
  activeVersion: c.active_version,
  keyId: c.key_id,
  createdAt: c.created_at,
  updatedAt: c.updated_at,
});

/** The first 6 characters of the app id, `…` (U+2026), the last 4; by code point, so no character is split. */
export function appFingerprint(appId: string): string {
  const chars = [...appId];
  return `${chars.slice(0, 6).join('')}\u2026${chars.slice(-4).join('')}`;
}

/** Provider connections and the chat-application connection; secrets go in, never out. */
export function connectionOperations({ connections }: Services): OperationModule {
  return {
    listProviderConnections: {
      rule: 'orgAdmin',
      handle: async ({ access }) => ({ connections: (await connections.listProviders(access.organization.id)).map(toProviderConnectionRow) }),
    },

    rotateProviderConnection: {
      rule: 'orgAdmin',
      async handle({ access, params, body }) {
        const { connection } = await connections.rotateProvider(access.organization.id, params.providerId, body, 'organization');
        return toProviderConnectionRow(connection);
      },
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
      handle: async ({ access, body }) => toChatApplicationConnection((await connections.putChatApplication(access.organization.id, body)).connection),
    },

    disableChatApplicationConnection: {
      rule: 'orgAdmin',
      handle: async ({ access }) => toChatApplicationConnection(await connections.disableChatApplication(access.organization.id)),
    },
  };
}
