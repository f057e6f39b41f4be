import type { Envelope } from './envelope.js';

/** The columns a sealed envelope is stored in, beside whatever row it seals a secret of. */
export const ENVELOPE_COLUMNS = ['key_id', 'wrapped_key', 'wrap_iv', 'wrap_tag', 'iv', 'tag', 'ciphertext'] as const;

/** An envelope as the values of ENVELOPE_COLUMNS. */
export function envelopeColumns(envelope: Envelope): Record<(typeof ENVELOPE_COLUMNS)[number], string | Buffer> {
  return {
    key_id: envelope.keyId,
    wrapped_key: envelope.wrappedKey,
    wrap_iv: envelope.wrapIv,
    wrap_tag: envelope.wrapTag,
    iv: envelope.iv,
    tag: envelope.tag,
    ciphertext: envelope.ciphertext,
  };
}

/** The envelope stored in a row's ENVELOPE_COLUMNS. */
export function envelopeOfColumns(row: Record<(typeof ENVELOPE_COLUMNS)[number], unknown>): Envelope {
  return {
    keyId: String(row.key_id),
    wrappedKey: row.wrapped_key as Buffer,
    wrapIv: row.wrap_iv as Buffer,
    wrapTag: row.wrap_tag as Buffer,
    iv: row.iv as Buffer,
    tag: row.tag as Buffer,
    ciphertext: row.ciphertext as Buffer,
  };
}
