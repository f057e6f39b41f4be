import { hash } from 'node:crypto';
import { byPathBytes } from './paths.js';

/** One file of a skill as the content address sees it. */
export interface FileHash {
  path: string;
  /** Lowercase hex SHA-256 of the file's bytes. */
  sha256: string;
}

/** Lowercase hex SHA-256 of the bytes, or of a string's UTF-8 bytes. */
export const sha256Hex = (data: Uint8Array | string): string => hash('sha256', data, 'hex');

/**
 * The manifest text the content address is the hash of: one line per file,
 * `<sha256 hex>  <path>\n` (two spaces), sorted by path bytewise. It is exactly what
 * `sha256sum` prints for the files listed in `LC_ALL=C sort` order (skill paths never hold the
 * backslash or newline that would make it escape a name).
 */
export function manifestText(files: readonly FileHash[]): string {
  return [...files]
    .sort((a, b) => byPathBytes(a.path, b.path))
    .map((file) => `${file.sha256}  ${file.path}\n`)
    .join('');
}

/** The skill's content address: lowercase hex SHA-256 of its manifest text. */
export const contentDigest = (files: readonly FileHash[]): string => sha256Hex(manifestText(files));

/** What a store entry is named by; anything else in the store directory is not an entry. */
export const DIGEST_PATTERN = /^[0-9a-f]{64}$/;
