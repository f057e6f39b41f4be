/** The longest avatar URL stored (the `users.avatar_url` column). */
export const AVATAR_URL_MAX_LENGTH = 2048;

/**
 * Why an avatar URL is refused, as a phrase to follow its name, or undefined when it is fine:
 * an absolute https URL (the admin app loads it in a secure page) without a user name or
 * password, at most 2048 characters. The URL is never quoted back.
 */
export function avatarUrlProblem(raw: string): string | undefined {
  if (raw.length > AVATAR_URL_MAX_LENGTH) return `must be at most ${AVATAR_URL_MAX_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute https URL';
  }
  if (url.protocol !== 'https:') return 'must be an https URL';
  if (url.username || url.password) return 'must not carry a user name or password';
  return undefined;
}
