import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
export const TOKEN_PREFIX = 'hubt_';
const SECRET_LENGTH = 43; // 43 base62 characters ≈ 256 bits
const PUBLIC_ID_LENGTH = 16; // 16 base32 characters = 80 bits
/** How much of a token its row shows, so a person can tell their tokens apart. */
export const VISIBLE_PREFIX_LENGTH = 12;

const LEGACY_TOKEN = /^hubt_[0-9A-Za-z]{43}$/;
const TOKEN = /^hubt_[a-z2-7]{16}_[0-9A-Za-z]{43}$/;

/** `length` characters of `alphabet`, each equally likely (bytes that would favour some are skipped). */
function randomText(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(64)) {
      if (byte < limit && out.length < length) out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

/** A token's public part: lower-case base32, safe in URLs, logs and Terraform ids; kept across rotations. */
export const newPublicId = (): string => randomText(BASE32, PUBLIC_ID_LENGTH);

/**
 * A token's text: `hubt_<publicId>_<secret>`. The `hubt_` prefix lets secret scanners and people
 * recognise it, the public id names the token without revealing it, and the secret (43 base62
 * characters) is what only its holder knows.
 */
export const newApiTokenText = (publicId: string): string => `${TOKEN_PREFIX}${publicId}_${newSecretText()}`;

/** A secret's random part: 43 base62 characters (about 256 bits), as tokens and runtime credentials carry. */
export const newSecretText = (): string => randomText(BASE62, SECRET_LENGTH);

/**
 * Whether a bearer value has the shape of one of our tokens, today's or the earlier `hubt_` and
 * 43 base62 characters that stay valid until they end (anything else is not looked up).
 */
export const looksLikeApiToken = (value: string): boolean => TOKEN.test(value) || LEGACY_TOKEN.test(value);
