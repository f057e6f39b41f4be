import { hash, randomBytes } from 'node:crypto';

/** A fresh 256-bit secret, URL-safe. Handed to the client once and never stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the database keeps instead of a token: a leaked table yields no usable cookie or link.
 * Hashed in one call (`crypto.hash`), as every request's cookie or bearer token is: cheaper than a
 * Hash object per token (bench/README.md, "Figures behind the code").
 */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}
