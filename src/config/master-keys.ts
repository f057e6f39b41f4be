import { ConfigError } from './config-error.js';

/** Master keys and data keys are AES-256 keys. */
export const KEY_BYTES = 32;

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]+={0,2}|[A-Za-z0-9_-]+)$/;

/** The master keys an operator gives in the environment, and the one that seals new versions. */
export interface MasterKeys {
  keys: ReadonlyMap<string, Buffer>;
  activeKeyId: string;
}

/**
 * `HUB_MASTER_KEYS` with `HUB_ACTIVE_KEY_ID`, both or neither (undefined: the key file in the
 * data directory is used). Faults throw a one-line ConfigError that never quotes key material.
 */
export function parseMasterKeyVariables(
  rawKeys: string | undefined,
  activeKeyId: string | undefined,
): MasterKeys | undefined {
  if (rawKeys === undefined && activeKeyId === undefined) return undefined;
  if (rawKeys === undefined) {
    throw new ConfigError(
      'HUB_ACTIVE_KEY_ID is set but HUB_MASTER_KEYS is not; set both, or neither to use the key file in the data ' +
        'directory',
    );
  }
  if (activeKeyId === undefined) {
    throw new ConfigError(
      'HUB_MASTER_KEYS is set but HUB_ACTIVE_KEY_ID is not; name the key that seals new credentials',
    );
  }
  const keys = parseMasterKeys(rawKeys, 'HUB_MASTER_KEYS');
  if (!keys.has(activeKeyId)) {
    throw new ConfigError(
      `HUB_ACTIVE_KEY_ID names no key of HUB_MASTER_KEYS (its key ids: ${[...keys.keys()].join(', ')})`,
    );
  }
  return { keys, activeKeyId };
}

/**
 * Parses `id:base64key,…`; every key must decode to 32 bytes and ids must be unique. Messages
 * name the entry by position or id, never by its text, which may hold a key.
 */
export function parseMasterKeys(raw: string, source: string): Map<string, Buffer> {
  const keys = new Map<string, Buffer>();
  raw.split(',').forEach((entry, index) => {
    const where = `${source} entry ${index + 1}`;
    const colon = entry.indexOf(':');
    if (colon === -1) throw new ConfigError(`${where} is not of the form id:base64key`);
    const id = entry.slice(0, colon).trim();
    const encoded = entry.slice(colon + 1).trim();
    if (!KEY_ID.test(id)) throw new ConfigError(`${where}: the key id must match ${KEY_ID.source}`);
    if (keys.has(id)) throw new ConfigError(`${source}: key id "${id}" appears twice`);
    const key = BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : undefined;
    if (!key || key.length !== KEY_BYTES) {
      throw new ConfigError(
        `${source}: key "${id}" must be ${KEY_BYTES} bytes in base64 (e.g. from "openssl rand -base64 32")`,
      );
    }
    keys.set(id, key);
  });
  return keys;
}
