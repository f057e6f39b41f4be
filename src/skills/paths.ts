import { invalidSkill, quoted } from './invalid.js';
import { CONTROL_CHARACTERS } from '../shared/text.js';

/** Longest file path inside a skill, in UTF-8 bytes (the request schema's `maxLength` too). */
export const MAX_PATH_BYTES = 512;
/** Longest single path segment, in UTF-8 bytes: what common file systems allow for a name. */
export const MAX_SEGMENT_BYTES = 255;
/** Most segments in one path: `a/b/c.md` has 3. */
export const MAX_DEPTH = 16;

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * Why a file path may not be part of a skill, or null when it may. A path is relative, POSIX
 * (`/` between segments), valid Unicode, without control characters or backslashes, without
 * empty, `.` or `..` segments, and within the length and depth bounds. Such a path can only
 * name a file below the directory it is resolved against.
 */
export function pathProblem(path: string): string | null {
  if (path === '') return 'is empty';
  if (!path.isWellFormed()) return 'is not valid Unicode (it has a lone surrogate)';
  if (path.includes('\u0000')) return 'contains a NUL character';
  if (CONTROL_CHARACTERS.test(path)) return 'contains a control character';
  if (path.includes('\\')) return 'contains a backslash (paths use "/")';
  if (path.startsWith('/')) return 'is absolute (it starts with "/")';
  if (utf8Bytes(path) > MAX_PATH_BYTES) return `is longer than ${MAX_PATH_BYTES} bytes`;
  const segments = path.split('/');
  if (segments.length > MAX_DEPTH) return `is deeper than ${MAX_DEPTH} levels`;
  for (const segment of segments) {
    if (segment === '') return path.endsWith('/') ? 'ends with "/"' : 'has an empty segment ("//")';
    if (segment === '.') return 'has a "." segment';
    if (segment === '..') return 'has a ".." segment';
    if (utf8Bytes(segment) > MAX_SEGMENT_BYTES) return `has a segment longer than ${MAX_SEGMENT_BYTES} bytes`;
  }
  return null;
}

/**
 * The key under which two paths count as the same file: NFC-normalized and case-folded
 * (upper- then lower-casing maps `ß` to `ss` and final sigma to sigma, as full case folding
 * does). Paths equal under it would overwrite each other on a case-insensitive or normalizing
 * file system, so a skill may hold only one of them.
 */
export const collisionKey = (path: string): string =>
  path.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');

/**
 * Checks every path of a skill's file list: each must pass `pathProblem`, no two may be equal
 * under `collisionKey`, and no file may also be a directory of another (`a` and `a/b`). Throws
 * 422 `invalid_skill` naming the first offending path.
 */
export function checkPaths(paths: readonly string[]): void {
  for (const path of paths) {
    const problem = pathProblem(path);
    if (problem) throw invalidSkill(`The file path ${quoted(path)} ${problem}`);
  }
  const files = new Map<string, string>();
  for (const path of paths) {
    const key = collisionKey(path);
    const earlier = files.get(key);
    if (earlier !== undefined) {
      throw invalidSkill(
        earlier === path
          ? `The file path ${quoted(path)} appears twice`
          : `The file paths ${quoted(earlier)} and ${quoted(path)} name the same file ` +
              'once case and Unicode normalization are ignored',
      );
    }
    files.set(key, path);
  }
  const directories = new Map<string, string>();
  for (const path of paths) {
    const segments = collisionKey(path).split('/');
    for (let depth = 1; depth < segments.length; depth++) {
      const key = segments.slice(0, depth).join('/');
      if (!directories.has(key)) directories.set(key, path);
    }
  }
  for (const [key, path] of files) {
    const inside = directories.get(key);
    if (inside !== undefined)
      throw invalidSkill(`The file path ${quoted(path)} is also a directory (of ${quoted(inside)})`);
  }
}

/** Paths in bytewise order of their UTF-8 encoding, the order `LC_ALL=C sort` gives. */
export const byPathBytes = (a: string, b: string): number =>
  Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
