import { CONTROL_CHARACTERS } from '../shared/text.js';

/** Where a sign-in lands when `returnTo` is absent or refused. */
export const DEFAULT_RETURN_TO = '/';
const MAX_RETURN_TO_LENGTH = 2048;

/**
 * `returnTo` as a path on this origin, or `/`. Only a path that starts with one `/` followed by
 * something other than `/` or `\` is kept: `//evil`, `/\evil` (browsers read a backslash as a
 * slash), a scheme (`https://evil`, `javascript:`), control characters and their percent-encoded
 * forms all become `/`. The value is checked as the browser will read it after the redirect:
 * decoded once more, so `/%2F%2Fevil` is refused too.
 */
export function safeReturnTo(raw: string | undefined): string {
  if (raw === undefined || raw.length > MAX_RETURN_TO_LENGTH) return DEFAULT_RETURN_TO;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return DEFAULT_RETURN_TO;
  }
  for (const candidate of [raw, decoded]) {
    if (!candidate.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\')) {
      return DEFAULT_RETURN_TO;
    }
    // Browsers drop tabs and newlines inside a URL and read `\` as `/`: `/\t/evil` is `//evil` to them.
    if (CONTROL_CHARACTERS.test(candidate) || candidate.includes('\\')) return DEFAULT_RETURN_TO;
  }
  // Resolved against a placeholder origin: anything that leaves it is not a same-origin path.
  const resolved = new URL(raw, 'http://origin.invalid');
  if (resolved.origin !== 'http://origin.invalid') return DEFAULT_RETURN_TO;
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
