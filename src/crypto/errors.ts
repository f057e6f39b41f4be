/**
 * Why a sealed credential could not be produced. Every failure is its own class with its own
 * `code`, so the agent runtime can tell an operator "restore key k1" apart from "someone edited
 * the database"; none carries key material or plaintext.
 */
export type CredentialErrorCode = 'unknown_key_id' | 'missing_key' | 'tampered_envelope' | 'connection_unavailable';

export abstract class CredentialError extends Error {
  abstract readonly code: CredentialErrorCode;
}

/** The envelope names a master key the keyring does not hold (retired, or never configured here). */
export class UnknownKeyIdError extends CredentialError {
  readonly code = 'unknown_key_id';

  constructor(readonly keyId: string) {
    super(
      `The credential is sealed under master key "${keyId}", which this keyring does not hold; add it to ` +
        `HUB_MASTER_KEYS.`,
    );
    this.name = 'UnknownKeyIdError';
  }
}

/** No master key is available at all: the key file is gone, or the key configuration is unusable. */
export class MissingKeyError extends CredentialError {
  readonly code = 'missing_key';

  constructor(message: string) {
    super(message);
    this.name = 'MissingKeyError';
  }
}

/**
 * AES-GCM refused the envelope: a byte changed, the envelope was copied to another row
 * (organization, connection or version differ from the ones sealed in), or the key under the
 * envelope's id is not the key it was sealed with.
 */
export class TamperedEnvelopeError extends CredentialError {
  readonly code = 'tampered_envelope';

  constructor(message: string) {
    super(message);
    this.name = 'TamperedEnvelopeError';
  }
}
