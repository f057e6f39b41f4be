import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { ConfigError } from '../config/config-error.js';
import { KEY_BYTES, parseMasterKeys, type MasterKeys } from '../config/master-keys.js';
import type { Logger } from '../log/logger.js';
import { MissingKeyError, UnknownKeyIdError } from './errors.js';

/** The embedded default's key file, in the data directory. */
export const KEY_FILE_NAME = 'master.key';

/**
 * The master keys this process may use, by id, and the one that seals new versions. Key
 * material sits in a private field and never appears in JSON, `inspect` or an error message.
 */
export class Keyring {
  readonly #keys: ReadonlyMap<string, Buffer>;

  constructor(
    keys: ReadonlyMap<string, Buffer>,
    readonly activeKeyId: string,
  ) {
    if (!keys.has(activeKeyId)) throw new Error('the active key id names no key of the keyring');
    this.#keys = new Map([...keys].map(([id, key]) => [id, Buffer.from(key)]));
  }

  get keyIds(): string[] {
    return [...this.#keys.keys()];
  }

  /** The key that seals new versions. */
  active(): { keyId: string; key: Buffer } {
    return { keyId: this.activeKeyId, key: this.#keys.get(this.activeKeyId)! };
  }

  /** Exactly the key named; there is no fallback to another. */
  key(keyId: string): Buffer {
    const key = this.#keys.get(keyId);
    if (!key) throw new UnknownKeyIdError(keyId);
    return key;
  }

  toJSON(): { activeKeyId: string; keyIds: string[] } {
    return { activeKeyId: this.activeKeyId, keyIds: this.keyIds };
  }

  [inspect.custom](): string {
    return `Keyring { active: ${this.activeKeyId}, keys: ${this.keyIds.join(', ')} }`;
  }
}

/** Where a keyring's keys are used in the database: every version, and versions that are active. */
export interface KeyUsage {
  keyId: string;
  versions: number;
  activeVersions: number;
}

export interface LoadKeyringOptions {
  /** The keys of HUB_MASTER_KEYS / HUB_ACTIVE_KEY_ID, as the configuration parsed them; undefined when unset. */
  masterKeys: MasterKeys | undefined;
  dataDir: string;
  /** Sealed versions per key id; decides whether a missing key file may be created. */
  keyUsage: () => Promise<KeyUsage[]>;
  logger?: Logger | undefined;
}

/**
 * The master keys from HUB_MASTER_KEYS / HUB_ACTIVE_KEY_ID, or, when neither is set, from the
 * key file in the data directory, created on first use. A missing key file over existing
 * envelopes is an error, never a reason to make a new key. Configuration faults throw
 * ConfigError with one line that names the variable and never quotes key material.
 */
export async function loadKeyring(options: LoadKeyringOptions): Promise<Keyring> {
  const { logger } = options;
  let keyring: Keyring;
  if (options.masterKeys) {
    keyring = new Keyring(options.masterKeys.keys, options.masterKeys.activeKeyId);
    logger?.info({ activeKeyId: keyring.activeKeyId, keyIds: keyring.keyIds }, 'master keys from HUB_MASTER_KEYS');
  } else {
    keyring = await keyringFromFile(path.join(options.dataDir, KEY_FILE_NAME), options.keyUsage, logger);
  }
  const usage = await options.keyUsage();
  const unreadable = usage.filter((u) => u.activeVersions > 0 && !keyring.keyIds.includes(u.keyId)).map((u) => u.keyId);
  if (unreadable.length) {
    logger?.warn(
      { keyIds: unreadable },
      'active credential versions are sealed under master keys this keyring lacks; they will not resolve',
    );
  }
  return keyring;
}

async function keyringFromFile(
  file: string,
  keyUsage: () => Promise<KeyUsage[]>,
  logger: Logger | undefined,
): Promise<Keyring> {
  const existing = readKeyFile(file, logger);
  if (existing) return existing;
  const sealed = (await keyUsage()).reduce((n, u) => n + u.versions, 0);
  if (sealed > 0) {
    throw new ConfigError(
      `the master key file ${file} is missing but the database holds ${sealed} sealed credential version(s); ` +
        'restore the file from a backup (or set HUB_MASTER_KEYS and HUB_ACTIVE_KEY_ID); a new key is never ' +
        'generated over existing envelopes',
    );
  }
  const created = createKeyFile(file);
  if (created) {
    logger?.info(
      { file, keyId: created.activeKeyId },
      'created the master key file (mode 0600); back it up: sealed credentials cannot be read without it',
    );
    return created;
  }
  // Another process created it between our read and our write: use theirs.
  return readKeyFile(file, logger) ?? failMissing(file);
}

function readKeyFile(file: string, logger: Logger | undefined): Keyring | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`cannot read the master key file ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  const keys = parseMasterKeys(text.trim(), `the master key file ${file}`);
  if (keys.size !== 1) throw new ConfigError(`the master key file ${file} must hold exactly one id:base64key line`);
  if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) {
    logger?.warn({ file }, 'the master key file is readable by other users; run chmod 600 on it');
  }
  return new Keyring(keys, [...keys.keys()][0]!);
}

/**
 * Writes a new key file atomically: a private temp file, synced, then hard-linked into place,
 * which fails when the name exists, so two processes starting at once cannot each keep a key
 * of their own. Undefined when another process won.
 */
function createKeyFile(file: string): Keyring | undefined {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const keyId = `local-${randomBytes(4).toString('hex')}`;
  const key = randomBytes(KEY_BYTES);
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = fs.openSync(temp, 'wx', 0o600);
    try {
      fs.fchmodSync(fd, 0o600);
      fs.writeFileSync(fd, `${keyId}:${key.toString('base64')}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.linkSync(temp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
      throw err;
    }
    syncDirectory(dir);
    return new Keyring(new Map([[keyId, key]]), keyId);
  } finally {
    key.fill(0);
    fs.rmSync(temp, { force: true });
  }
}

function syncDirectory(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function failMissing(file: string): never {
  throw new ConfigError(`the master key file ${file} vanished while it was being created`);
}

/** Gives the services their keyring, which may be loaded on first use. */
export interface KeyringSource {
  keyring(): Promise<Keyring>;
}

export const fixedKeyring = (keyring: Keyring): KeyringSource => ({ keyring: async () => keyring });

/**
 * Loads the keyring when a credential is first sealed or resolved. A failed load is not
 * remembered (restoring the key file heals the process) and surfaces as MissingKeyError.
 */
export function lazyKeyring(load: () => Promise<Keyring>): KeyringSource {
  let pending: Promise<Keyring> | undefined;
  return {
    keyring() {
      pending ??= load().catch((err: unknown) => {
        pending = undefined;
        throw new MissingKeyError(`No master key is available: ${(err as Error).message}`);
      });
      return pending;
    },
  };
}
