import type { IdentityProvider } from './provider-store.js';

/**
 * Why a sign-in failed, as the `error` of `/signin?error=<code>` (openapi.yaml `SignInErrorCode`;
 * the sign-in page words each for people).
 */
export const SIGN_IN_ERROR_CODES = [
  'provider_unavailable',
  'provider_denied',
  'provider_failed',
  'state_invalid',
  'signin_expired',
  'token_invalid',
  'identity_invalid',
  'tenant_not_allowed',
  'email_domain_not_allowed',
  'session_required',
  'identity_in_use',
  'sso_required',
  'group_required',
] as const;
export type SignInErrorCode = (typeof SIGN_IN_ERROR_CODES)[number];

/**
 * A sign-in refused: no session, no user; the browser lands on `/signin?error=<code>`, or, when
 * it was connecting one more identity from the profile page (`linking`), back on that page.
 */
export class SignInRefused extends Error {
  constructor(
    readonly code: SignInErrorCode,
    message: string,
    readonly linking = false,
    /** With `sso_required`: the domain whose required provider the page offers instead. */
    readonly domain?: string,
  ) {
    super(message);
    this.name = 'SignInRefused';
  }

  /** The same refusal, of a sign-in that was connecting an identity. */
  ofLinking(): SignInRefused {
    return new SignInRefused(this.code, this.message, true, this.domain);
  }
}

/** The provider at `hub identity-provider set` does not answer as its kind must (unreachable, not conformant). */
export class ProviderCheckFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderCheckFailed';
  }
}

/** Who signed in, as the provider vouched for them. */
export interface ProviderProfile {
  subject: string;
  displayName: string | undefined;
  avatarUrl: string | undefined;
  email: string | undefined;
  emailVerified: boolean;
  /** The organization tenant the account belongs to (lark `tenant_key`, oidc `tid`), when the provider says. */
  tenant: string | undefined;
  /**
   * Every claim the provider sent (ID token over userinfo; lark: its user-info `data`), for the
   * rules an organization's provider reads beside these (its groups claim). Never stored whole.
   */
  claims: Readonly<Record<string, unknown>>;
}

/** What binds a callback to its start: sent to the provider, then checked against what comes back. */
export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** A provider with its client secret opened, for the one request that needs it. */
export interface ProviderWithSecret {
  provider: IdentityProvider;
  clientSecret: string;
}

/** One kind of identity provider: how to check it, send a browser to it, and read its answer. */
export interface SignInProtocol {
  /** At `set`: the endpoint answers as this kind must; throws ProviderCheckFailed otherwise. */
  check(endpoint: string): Promise<void>;
  /** Where to send the browser. */
  authorizationUrl(target: ProviderWithSecret, request: AuthorizationRequest): Promise<URL>;
  /** The verified profile behind a callback; throws SignInRefused. */
  finish(target: ProviderWithSecret, request: AuthorizationRequest, callbackUrl: URL): Promise<ProviderProfile>;
}

/** A string claim, trimmed, or undefined. */
export const stringClaim = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
