import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const TOKEN_PREFIX = 'hubt_';
const SECRET_LENGTH = 43; // 43 base62 characters ≈ 256 bits
/** How much of a token its row shows, so a person can tell their tokens apart. */
export const VISIBLE_PREFIX_LENGTH = 12;

/**
 * A new token: `hubt_` and 43 base62 characters. The prefix lets secret scanners and people
 * recognise it; bytes ≥ 248 are skipped so every character is equally likely.
 */
export function newApiTokenSecret(): string {
  let out = TOKEN_PREFIX;
  while (out.length < TOKEN_PREFIX.length + SECRET_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && out.length < TOKEN_PREFIX.length + SECRET_LENGTH) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** Whether a bearer value has the shape of one of our tokens (anything else is not looked up). */
export const looksLikeApiToken = (value: string): boolean =>
  value.length === TOKEN_PREFIX.length + SECRET_LENGTH &&
  value.startsWith(TOKEN_PREFIX) &&
  /^[0-9A-Za-z]+$/.test(value.slice(5));
