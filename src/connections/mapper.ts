import type { Schema } from '../http/operation-types.js';
import type { CapabilityConnectionRecord, ChatApplicationConnectionRecord, ProviderConnectionRecord } from './store.js';

/** An external-capability connection: its endpoint and label, never its headers. */
export const toCapabilityConnectionRow = (c: CapabilityConnectionRecord): Schema<'CapabilityConnectionRow'> => ({
  id: c.id,
  capabilityId: c.capability_id,
  label: c.label,
  kind: c.kind,
  endpointUrl: c.endpoint_url,
  status: c.status,
  activeVersion: c.active_version,
  keyId: c.key_id,
  createdAt: c.created_at,
  updatedAt: c.updated_at,
});

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

/** The chat-application connection without its app id: only a fingerprint of it goes out. */
export const toChatApplicationConnection = (
  c: ChatApplicationConnectionRecord,
): Schema<'ChatApplicationConnection'> => ({
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
