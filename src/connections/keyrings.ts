import type { MasterKeys } from '../config/master-keys.js';
import {
  fixedKeyring,
  lazyKeyring,
  loadKeyring,
  type Keyring,
  type KeyringSource,
  type KeyUsage,
} from '../crypto/keyring.js';
import type { Executor } from '../db/unit-of-work.js';
import { IdentityProviderStore } from '../identity/provider-store.js';
import type { Logger } from '../log/logger.js';
import { WebhookStore } from '../webhooks/store.js';
import { ConnectionStore } from './store.js';

/** Every envelope the keyring seals: connection credentials, identity providers' client secrets, webhook secrets. */
async function sealedKeyUsage(db: Executor): Promise<KeyUsage[]> {
  const usage = new Map<string, KeyUsage>();
  const all = [
    ...(await new ConnectionStore().keyUsage(db)),
    ...(await new IdentityProviderStore().keyUsage(db)),
    ...(await new WebhookStore().keyUsage(db)),
  ];
  for (const u of all) {
    const entry = usage.get(u.keyId) ?? { keyId: u.keyId, versions: 0, activeVersions: 0 };
    entry.versions += u.versions;
    entry.activeVersions += u.activeVersions;
    usage.set(u.keyId, entry);
  }
  return [...usage.values()];
}

/**
 * Loads the master keys at start-up (`hub serve`, and host-console commands that seal), after
 * the migrations: bad key configuration, or a missing key file over sealed credentials, stops
 * the process with one line (ConfigError) instead of failing at the first request.
 */
export function loadStartupKeyring(
  db: Executor,
  options: { masterKeys: MasterKeys | undefined; dataDir: string; logger: Logger },
): Promise<Keyring> {
  return loadKeyring({ ...options, keyUsage: () => sealedKeyUsage(db) });
}

/**
 * The keyring the connection services use: the one loaded at start-up when given; otherwise
 * (tests, commands that never seal) loaded from the same configuration on first use.
 */
export function connectionKeyrings(deps: {
  keyring: Keyring | undefined;
  db: Executor;
  masterKeys: MasterKeys | undefined;
  dataDir: string;
  logger: Logger;
}): KeyringSource {
  if (deps.keyring) return fixedKeyring(deps.keyring);
  const { db, masterKeys, dataDir, logger } = deps;
  return lazyKeyring(() => loadKeyring({ masterKeys, dataDir, keyUsage: () => sealedKeyUsage(db), logger }));
}
