import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { TamperedEnvelopeError } from './errors.js';
import { KEY_BYTES } from '../config/master-keys.js';
import type { Keyring } from './keyring.js';

const CIPHER = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * One sealed credential version. The payload is encrypted under a data key used for this
 * version only; the data key is stored wrapped (encrypted) by the master key `keyId`.
 * Both layers are AES-256-GCM with their own random IV and 16-byte tag.
 */
export interface Envelope {
  keyId: string;
  wrappedKey: Buffer;
  wrapIv: Buffer;
  wrapTag: Buffer;
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}

/**
 * Where an envelope belongs. It is bound into both layers as associated data, so an envelope
 * copied to another organization, connection or version no longer authenticates.
 */
export interface EnvelopeBinding {
  organizationId: string;
  connectionId: string;
  version: number;
}

/** Seals the plaintext under a fresh data key wrapped by the keyring's active master key. */
export function seal(plaintext: Buffer, binding: EnvelopeBinding, keyring: Keyring): Envelope {
  const { keyId, key } = keyring.active();
  const dataKey = randomBytes(KEY_BYTES);
  try {
    const wrapped = encrypt(key, dataKey, associatedData('data-key', binding));
    const sealed = encrypt(dataKey, plaintext, associatedData('payload', binding));
    return { keyId, wrappedKey: wrapped.ciphertext, wrapIv: wrapped.iv, wrapTag: wrapped.tag, ...sealed };
  } finally {
    dataKey.fill(0);
  }
}

/**
 * Opens an envelope with exactly the master key it names. Throws UnknownKeyIdError when the
 * keyring lacks that key and TamperedEnvelopeError when either layer fails to authenticate.
 */
export function open(envelope: Envelope, binding: EnvelopeBinding, keyring: Keyring): Buffer {
  checkShape(envelope);
  const masterKey = keyring.key(envelope.keyId);
  let dataKey: Buffer;
  try {
    dataKey = decrypt(
      masterKey,
      envelope.wrapIv,
      envelope.wrapTag,
      envelope.wrappedKey,
      associatedData('data-key', binding),
    );
  } catch {
    throw new TamperedEnvelopeError(
      `The data key of connection ${binding.connectionId} version ${binding.version} does not authenticate under ` +
        `master key "${envelope.keyId}": ` +
        'the envelope was altered or moved from another row, or that key id now names a different key.',
    );
  }
  try {
    return decrypt(dataKey, envelope.iv, envelope.tag, envelope.ciphertext, associatedData('payload', binding));
  } catch {
    throw new TamperedEnvelopeError(
      `The payload of connection ${binding.connectionId} version ${binding.version} does not authenticate: the ` +
        `envelope was altered or moved from another row.`,
    );
  } finally {
    dataKey.fill(0);
  }
}

/**
 * A self-delimiting encoding (a JSON array) of a domain label, the layer and the binding, so no
 * two different bindings produce the same bytes and a wrapped key never verifies as a payload.
 */
function associatedData(layer: 'data-key' | 'payload', b: EnvelopeBinding): Buffer {
  return Buffer.from(JSON.stringify(['hub-credential/v1', layer, b.organizationId, b.connectionId, b.version]), 'utf8');
}

function encrypt(key: Buffer, plaintext: Buffer, aad: Buffer): { iv: Buffer; tag: Buffer; ciphertext: Buffer } {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(CIPHER, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ciphertext };
}

function decrypt(key: Buffer, iv: Buffer, tag: Buffer, ciphertext: Buffer, aad: Buffer): Buffer {
  // authTagLength pins the tag to 16 bytes: a truncated tag is refused, not checked on fewer bits.
  const decipher = createDecipheriv(CIPHER, key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
}

function checkShape(e: Envelope): void {
  const wrong =
    e.wrappedKey.length !== KEY_BYTES ||
    e.wrapIv.length !== IV_BYTES ||
    e.wrapTag.length !== TAG_BYTES ||
    e.iv.length !== IV_BYTES ||
    e.tag.length !== TAG_BYTES;
  if (wrong)
    throw new TamperedEnvelopeError('The envelope fields do not have the lengths AES-256-GCM sealing produces.');
}
