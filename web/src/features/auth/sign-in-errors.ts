import type { Schemas } from '../../lib/api-client';

/** What the sign-in page says for each code of `/signin?error=<code>` (openapi.yaml `SignInErrorCode`). */
const MESSAGES: Record<Schemas['SignInErrorCode'], string> = {
  provider_unavailable: 'This sign-in option is not available. Choose another one, or ask for a login link.',
  provider_denied: 'The sign-in was cancelled or refused at the identity provider.',
  provider_failed: 'The identity provider could not complete the sign-in. Try again in a moment.',
  state_invalid: 'This sign-in could not be matched to this browser, or was already used. Start again from here.',
  signin_expired: 'The sign-in took longer than 10 minutes. Start again.',
  token_invalid: "The identity provider's answer could not be verified, so you were not signed in.",
  identity_invalid: 'The identity provider did not say who you are.',
  tenant_not_allowed: 'Accounts of your organization may not sign in to this hub.',
  email_domain_not_allowed: 'Accounts with your email address may not sign in to this hub.',
  session_required: 'Sign in first, then connect another sign-in from your profile.',
  identity_in_use: 'That account is already connected to another user of this hub, so it was not added to you.',
  sso_required:
    "Your email address's organization requires its own sign-in. Type your email below and use the button it shows.",
  group_required: "Your account is in none of the groups your organization's sign-in admits. Ask your administrator.",
};

/** The message for an error code from the URL; a code this app does not know still gets a sentence. */
export function signInErrorMessage(code: string): string {
  return (MESSAGES as Record<string, string>)[code] ?? 'The sign-in did not succeed. Start again.';
}
