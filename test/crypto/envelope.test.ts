import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { open, seal, type Envelope, type EnvelopeBinding } from '../../src/crypto/envelope.js';
import { TamperedEnvelopeError, UnknownKeyIdError } from '../../src/crypto/errors.js';
import { Keyring } from '../../src/crypto/keyring.js';

const k1 = randomBytes(32);
const k2 = randomBytes(32);
const ring = (active: string, keys: Record<string, Buffer>) => new Keyring(new Map(Object.entries(keys)), active);
const only1 = ring('k1', { k1 });
const binding: EnvelopeBinding = { organizationId: 'org-a', connectionId: 'conn-1', version: 1 };
const secret = Buffer.from('{"authToken":"sk-unit-secret"}');

function flipped(envelope: Envelope, field: keyof Omit<Envelope, 'keyId'>): Envelope {
  const copy = Buffer.from(envelope[field]);
  copy[copy.length - 1]! ^= 0x01;
  return { ...envelope, [field]: copy };
}

describe('seal and open', () => {
  it('round-trips under the active key, naming it, with a fresh data key and IVs each time', () => {
    const a = seal(secret, binding, only1);
    const b = seal(secret, binding, only1);
    expect(a.keyId).toBe('k1');
    expect(open(a, binding, only1)).toEqual(secret);
    expect(a.ciphertext.equals(b.ciphertext)).toBe(false);
    expect(a.wrappedKey.equals(b.wrappedKey)).toBe(false);
    expect(a.iv.equals(b.iv)).toBe(false);
    expect([a.wrappedKey.length, a.wrapIv.length, a.wrapTag.length, a.iv.length, a.tag.length]).toEqual([
      32, 12, 16, 12, 16,
    ]);
    expect(a.ciphertext.includes(Buffer.from('sk-unit-secret'))).toBe(false);
  });

  it('refuses an envelope with any one byte changed', () => {
    const envelope = seal(secret, binding, only1);
    for (const field of ['wrappedKey', 'wrapIv', 'wrapTag', 'iv', 'tag', 'ciphertext'] as const) {
      expect(() => open(flipped(envelope, field), binding, only1), field).toThrow(TamperedEnvelopeError);
    }
  });

  it('refuses a truncated tag or a field of the wrong length', () => {
    const envelope = seal(secret, binding, only1);
    expect(() => open({ ...envelope, tag: envelope.tag.subarray(0, 12) }, binding, only1)).toThrow(
      TamperedEnvelopeError,
    );
    expect(() =>
      open({ ...envelope, wrappedKey: Buffer.concat([envelope.wrappedKey, Buffer.alloc(1)]) }, binding, only1),
    ).toThrow(TamperedEnvelopeError);
  });

  it('refuses an envelope moved to another organization, connection or version', () => {
    const envelope = seal(secret, binding, only1);
    for (const moved of [
      { ...binding, organizationId: 'org-b' },
      { ...binding, connectionId: 'conn-2' },
      { ...binding, version: 2 },
    ]) {
      expect(() => open(envelope, moved, only1)).toThrow(TamperedEnvelopeError);
    }
  });

  it('opens with exactly the key the envelope names: unknown id, or another key under that id, fail', () => {
    const envelope = seal(secret, binding, only1);
    const error = (() => {
      try {
        open(envelope, binding, ring('k2', { k2 }));
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(UnknownKeyIdError);
    expect(error).toMatchObject({ code: 'unknown_key_id', keyId: 'k1' });
    expect(() => open(envelope, binding, ring('k1', { k1: k2 }))).toThrow(TamperedEnvelopeError);
  });

  it('keeps old versions readable after a new active key is added; new ones name the new key', () => {
    const old = seal(secret, binding, only1);
    const rotated = ring('k2', { k1, k2 });
    expect(open(old, binding, rotated)).toEqual(secret);
    const next = seal(secret, { ...binding, version: 2 }, rotated);
    expect(next.keyId).toBe('k2');
    expect(() => open(next, { ...binding, version: 2 }, only1)).toThrow(UnknownKeyIdError);
  });
});

describe('Keyring', () => {
  it('never shows key material in JSON or inspect output', () => {
    const keyring = ring('k2', { k1, k2 });
    const shown =
      JSON.stringify(keyring) + inspect(keyring) + inspect({ nested: keyring }, { depth: 5, showHidden: true });
    for (const key of [k1, k2]) {
      expect(shown).not.toContain(key.toString('base64'));
      expect(shown).not.toContain(key.toString('hex'));
    }
    expect(JSON.parse(JSON.stringify(keyring))).toEqual({ activeKeyId: 'k2', keyIds: ['k1', 'k2'] });
  });

  it('does not share its key buffers with the caller', () => {
    const material = Buffer.from(k1);
    const keyring = ring('k1', { k1: material });
    material.fill(0);
    expect(keyring.key('k1').equals(k1)).toBe(true);
  });
});
