import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { MissingKeyError } from '../../src/crypto/errors.js';
import { loadConfig } from '../../src/config/config.js';
import { parseMasterKeys } from '../../src/config/master-keys.js';
import { KEY_FILE_NAME, lazyKeyring, loadKeyring, type KeyUsage } from '../../src/crypto/keyring.js';
import { createLogger } from '../../src/log/logger.js';

const b64 = () => randomBytes(32).toString('base64');
/** The master keys as the configuration parses them from this environment. */
const masterKeysOf = (env: Record<string, string>) => loadConfig(env).masterKeys;
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-keyring-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const none = async (): Promise<KeyUsage[]> => [];
const sealed = async (): Promise<KeyUsage[]> => [{ keyId: 'local-00000000', versions: 3, activeVersions: 1 }];

function capture() {
  const lines: string[] = [];
  const logger = createLogger({
    destination: new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    }),
  });
  return { logger, lines };
}

/** The ConfigError a call throws: one line, never quoting the given text. */
function configError(run: () => unknown, secretText?: string): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    if (secretText) expect(message).not.toContain(secretText);
    return message;
  }
  throw new Error('expected a ConfigError');
}

describe('parseMasterKeys', () => {
  it('reads id:base64key pairs, in standard or url-safe base64, around spaces', () => {
    const a = randomBytes(32);
    const b = randomBytes(32);
    const keys = parseMasterKeys(` k1:${a.toString('base64')} , k-2.x:${b.toString('base64url')}`, 'HUB_MASTER_KEYS');
    expect([...keys.keys()]).toEqual(['k1', 'k-2.x']);
    expect(keys.get('k1')!.equals(a)).toBe(true);
    expect(keys.get('k-2.x')!.equals(b)).toBe(true);
  });

  it('refuses malformed entries with one line that names the entry, never its key', () => {
    const short = randomBytes(16).toString('base64');
    const good = b64();
    expect(configError(() => parseMasterKeys(good, 'HUB_MASTER_KEYS'), good)).toMatch(
      /HUB_MASTER_KEYS entry 1 is not of the form id:base64key/,
    );
    expect(configError(() => parseMasterKeys(`k1:${short}`, 'HUB_MASTER_KEYS'), short)).toMatch(
      /key "k1" must be 32 bytes/,
    );
    expect(configError(() => parseMasterKeys(`k1:not base64!`, 'HUB_MASTER_KEYS'), 'not base64')).toMatch(
      /key "k1" must be 32 bytes/,
    );
    expect(configError(() => parseMasterKeys(`k1:${good},k1:${b64()}`, 'HUB_MASTER_KEYS'), good)).toMatch(
      /"k1" appears twice/,
    );
    expect(configError(() => parseMasterKeys(`bad id:${good}`, 'HUB_MASTER_KEYS'), good)).toMatch(
      /entry 1: the key id must match/,
    );
    expect(configError(() => parseMasterKeys(`k1:${good},`, 'HUB_MASTER_KEYS'), good)).toMatch(
      /entry 2 is not of the form/,
    );
  });
});

describe('loadKeyring from the environment', () => {
  it('uses HUB_MASTER_KEYS with HUB_ACTIVE_KEY_ID and never touches the key file', async () => {
    const dir = tempDir();
    const keyring = await loadKeyring({
      masterKeys: masterKeysOf({ HUB_MASTER_KEYS: `old:${b64()},new:${b64()}`, HUB_ACTIVE_KEY_ID: 'new' }),
      dataDir: dir,
      keyUsage: none,
    });
    expect(keyring.activeKeyId).toBe('new');
    expect(keyring.keyIds).toEqual(['old', 'new']);
    expect(fs.existsSync(path.join(dir, KEY_FILE_NAME))).toBe(false);
  });

  it('fails with one line when only one of the two is set or the active id names no key', async () => {
    const dir = tempDir();
    const key = b64();
    const load = async (env: Record<string, string>) =>
      loadKeyring({ masterKeys: masterKeysOf(env), dataDir: dir, keyUsage: none });
    await expect(load({ HUB_MASTER_KEYS: `k1:${key}` })).rejects.toThrow(/HUB_ACTIVE_KEY_ID is not/);
    await expect(load({ HUB_ACTIVE_KEY_ID: 'k1' })).rejects.toThrow(/HUB_MASTER_KEYS is not/);
    const unknown = load({ HUB_MASTER_KEYS: `k1:${key}`, HUB_ACTIVE_KEY_ID: 'k9' });
    await expect(unknown).rejects.toBeInstanceOf(ConfigError);
    await expect(unknown).rejects.toThrow(/HUB_ACTIVE_KEY_ID names no key of HUB_MASTER_KEYS \(its key ids: k1\)/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('warns when active versions are sealed under a key the keyring lacks', async () => {
    const { logger, lines } = capture();
    await loadKeyring({
      masterKeys: masterKeysOf({ HUB_MASTER_KEYS: `k2:${b64()}`, HUB_ACTIVE_KEY_ID: 'k2' }),
      dataDir: tempDir(),
      keyUsage: sealed,
      logger,
    });
    expect(lines.map((l) => JSON.parse(l)).find((l) => l.level === 40)).toMatchObject({ keyIds: ['local-00000000'] });
  });
});

describe('the key file (embedded default)', () => {
  it('is created on first load with mode 0600, logged, and read back on the next load', async () => {
    const dir = tempDir();
    const { logger, lines } = capture();
    const first = await loadKeyring({ masterKeys: masterKeysOf({}), dataDir: dir, keyUsage: none, logger });
    const file = path.join(dir, KEY_FILE_NAME);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(first.activeKeyId).toMatch(/^local-[0-9a-f]{8}$/);
    expect(fs.readFileSync(file, 'utf8')).toMatch(new RegExp(`^${first.activeKeyId}:[A-Za-z0-9+/]{43}=\\n$`));
    expect(lines.join('\n')).toContain('created the master key file');
    expect(lines.join('\n')).not.toContain(fs.readFileSync(file, 'utf8').split(':')[1]!.trim());
    const second = await loadKeyring({ masterKeys: masterKeysOf({}), dataDir: dir, keyUsage: none });
    expect(second.activeKeyId).toBe(first.activeKeyId);
    expect(second.key(first.activeKeyId).equals(first.key(first.activeKeyId))).toBe(true);
    expect(fs.readdirSync(dir)).toEqual([KEY_FILE_NAME]);
  });

  it('is created once when several processes start at the same moment', async () => {
    const dir = tempDir();
    const rings = await Promise.all(
      Array.from({ length: 8 }, () => loadKeyring({ masterKeys: masterKeysOf({}), dataDir: dir, keyUsage: none })),
    );
    expect(new Set(rings.map((r) => r.activeKeyId)).size).toBe(1);
    expect(fs.readdirSync(dir)).toEqual([KEY_FILE_NAME]);
  });

  it('is never generated over sealed credentials: a missing file then stops start-up', async () => {
    const dir = tempDir();
    const attempt = loadKeyring({ masterKeys: masterKeysOf({}), dataDir: dir, keyUsage: sealed });
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    await expect(attempt).rejects.toThrow(
      new RegExp(
        /master key file .*master\.key is missing /.source +
          /but the database holds 3 sealed credential version\(s\).*never generated/.source,
      ),
    );
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses a malformed key file, and warns when others can read it', async () => {
    const dir = tempDir();
    const file = path.join(dir, KEY_FILE_NAME);
    fs.writeFileSync(file, 'garbage\n', { mode: 0o600 });
    await expect(loadKeyring({ masterKeys: masterKeysOf({}), dataDir: dir, keyUsage: none })).rejects.toThrow(
      /master key file .* entry 1 is not of the form/,
    );
    fs.writeFileSync(file, `local-1:${b64()}\n`);
    fs.chmodSync(file, 0o644);
    const { logger, lines } = capture();
    await loadKeyring({ masterKeys: masterKeysOf({}), dataDir: dir, keyUsage: none, logger });
    expect(lines.join('\n')).toContain('chmod 600');
  });
});

describe('lazyKeyring', () => {
  it('loads once, and turns a failed load into MissingKeyError without remembering it', async () => {
    let calls = 0;
    let fail = true;
    const source = lazyKeyring(async () => {
      calls += 1;
      if (fail) throw new ConfigError('the master key file /x/master.key is missing');
      return loadKeyring({
        masterKeys: masterKeysOf({ HUB_MASTER_KEYS: `k1:${b64()}`, HUB_ACTIVE_KEY_ID: 'k1' }),
        dataDir: tempDir(),
        keyUsage: none,
      });
    });
    await expect(source.keyring()).rejects.toBeInstanceOf(MissingKeyError);
    await expect(source.keyring()).rejects.toMatchObject({ code: 'missing_key' });
    fail = false;
    const [a, b] = await Promise.all([source.keyring(), source.keyring()]);
    expect(a).toBe(b);
    await source.keyring();
    expect(calls).toBe(3);
  });
});
