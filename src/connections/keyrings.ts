import type { MasterKeys } from '../config/master-keys.js';
import { fixedKeyring, lazyKeyring, loadKeyring, type Keyring, type KeyringSource } from '../crypto/keyring.js';
import type { Executor } from '../db/unit-of-work.js';
import type { Logger } from '../log/logger.js';
import { ConnectionStore } from './store.js';

/**
 * Loads the master keys at start-up (`hub serve`, and host-console commands that seal), after
 * the migrations: bad key configuration, or a missing key file over sealed credentials, stops
 * the process with one line (ConfigError) instead of failing at the first request.
 */
export function loadStartupKeyring(
  db: Executor,
  options: { masterKeys: MasterKeys | undefined; dataDir: string; logger: Logger },
): Promise<Keyring> {
  const store = new ConnectionStore();
  return loadKeyring({ ...options, keyUsage: () => store.keyUsage(db) });
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
  const store = new ConnectionStore();
  return lazyKeyring(() => loadKeyring({ masterKeys, dataDir, keyUsage: () => store.keyUsage(db), logger }));
}
