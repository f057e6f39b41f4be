import { CONTROL_CHARACTERS } from '../shared/control-characters.js';

// No imports but the control-character rule: the web app imports this file too, so the server
// and the sign-in page keep one rule for where a sign-in may land.

/** Where a sign-in lands when `returnTo` is absent or refused. */
export const DEFAULT_RETURN_TO = '/';
const MAX_RETURN_TO_LENGTH = 2048;
const PLACEHOLDER_ORIGIN = 'http://origin.invalid';

/** A path segment that is `.` or `..`, spelled plainly or percent-encoded in any case. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * Whether text reads as a path of this origin wherever a browser or router meets it: one `/`
 * followed by something other than `/` (`//evil` is another host), no `\` (browsers read it as
 * `/`: `/\evil` is `//evil`), no control characters (browsers drop tabs and newlines inside a
 * URL, so `/\t/evil` is `//evil`), and, in the path part, no empty segment and no dot segment
 * (resolving `/.//evil` removes the `.` and leaves `//evil`).
 */
function readsAsOwnPath(text: string): boolean {
  if (!text.startsWith('/') || text.includes('\\') || CONTROL_CHARACTERS.test(text)) return false;
  const path = text.split(/[?#]/, 1)[0]!;
  return path
    .slice(1)
    .split('/')
    .every((segment, i, all) => {
      if (DOT_SEGMENT.test(segment)) return false;
      // Only the last segment may be empty: `/teams/` is fine, `/a//b` and `//b` are not.
      return segment !== '' || i === all.length - 1;
    });
}

/** The text decoded once as a browser or router may, or undefined when it is not valid encoding. */
function decodedOnce(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Whether the text, and the text decoded once, both read as a path of this origin. */
const safeAsReadAndDecoded = (text: string): boolean => {
  const decoded = decodedOnce(text);
  return decoded !== undefined && readsAsOwnPath(text) && readsAsOwnPath(decoded);
};

/**
 * `returnTo` as a path on this origin, or `/`. The value is checked as given and decoded once
 * (so `/%2F%2Fevil` is refused), then resolved as a browser resolves a `Location` and the result
 * checked again, decoded once too: whatever comes out is a path that stays on this origin however
 * often it is read. A scheme (`https://evil`, `javascript:`), `//evil`, `/\evil`, a dot segment
 * in any spelling (`/.//evil`, `/%2E%2E//evil`), control characters and their percent-encoded
 * forms all become `/`.
 */
export function safeReturnTo(raw: string | null | undefined): string {
  if (raw === undefined || raw === null || raw.length > MAX_RETURN_TO_LENGTH) return DEFAULT_RETURN_TO;
  if (!safeAsReadAndDecoded(raw)) return DEFAULT_RETURN_TO;
  const resolved = new URL(raw, PLACEHOLDER_ORIGIN);
  if (resolved.origin !== PLACEHOLDER_ORIGIN) return DEFAULT_RETURN_TO;
  const answer = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  return safeAsReadAndDecoded(answer) ? answer : DEFAULT_RETURN_TO;
}
