import { createHash, randomBytes } from 'node:crypto';

/** A fresh 256-bit secret, URL-safe. Handed to the client once and never stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps instead of a token: a leaked table yields no usable cookie or link. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
