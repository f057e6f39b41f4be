import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';
import type { CapabilityConnectionRecord, ChatApplicationConnectionRecord, ProviderConnectionRecord } from './store.js';

/** A provider connection: its mode and state, never its credentials; by providerId. */
export const providerConnectionProjection = projection<ProviderConnectionRecord, Schema<'ProviderConnectionRow'>>()({
  fields: {
    id: 'id',
    providerId: 'provider_id',
    mode: 'mode',
    status: 'status',
    activeVersion: 'active_version',
    keyId: 'key_id',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: [{ column: 'provider_id', by: 'codeUnits' }],
});

/**
 * An external-capability connection: its endpoint and label, never its headers; by capabilityId.
 * Whether a run may use it (`allowed`, `reasons`) is admission's answer, added by the list.
 */
export const capabilityConnectionProjection = projection<
  CapabilityConnectionRecord,
  Omit<Schema<'CapabilityConnectionRow'>, 'allowed' | 'reasons'>
>()({
  fields: {
    id: 'id',
    capabilityId: 'capability_id',
    label: 'label',
    kind: 'kind',
    endpointUrl: 'endpoint_url',
    status: 'status',
    activeVersion: 'active_version',
    keyId: 'key_id',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: [{ column: 'capability_id', by: 'codeUnits' }],
});

/** The chat-application connection without its app id: only a fingerprint of it goes out. */
export const chatApplicationConnectionProjection = projection<
  ChatApplicationConnectionRecord,
  Schema<'ChatApplicationConnection'>
>()({
  fields: {
    id: 'id',
    appFingerprint: { column: 'app_id', as: (appId) => appFingerprint(appId) },
    status: 'status',
    activeVersion: 'active_version',
    keyId: 'key_id',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
});

export const toProviderConnectionRow = providerConnectionProjection.toApi;
export const toCapabilityConnectionRow = capabilityConnectionProjection.toApi;
export const toChatApplicationConnection = chatApplicationConnectionProjection.toApi;

/** The first 6 characters of the app id, `…` (U+2026), the last 4; by code point, so no character is split. */
export function appFingerprint(appId: string): string {
  const chars = [...appId];
  return `${chars.slice(0, 6).join('')}\u2026${chars.slice(-4).join('')}`;
}
