import * as client from 'openid-client';
import { MINUTE_MS } from '../config/clock.js';
import type { OutboundClient } from '../outbound/client.js';
import { isPlainHttp } from './endpoint-url.js';
import { JwksCache, kidOf } from './jwks.js';
import {
  type AuthorizationRequest,
  ProviderCheckFailed,
  type ProviderProfile,
  type ProviderWithSecret,
  type SignInProtocol,
  SignInRefused,
  stringClaim,
} from './protocol.js';

/** How long a provider's discovery document is reused before it is fetched again. */
const DISCOVERY_TTL_MS = 10 * MINUTE_MS;
/** Seconds any one request to the provider may take. */
const REQUEST_TIMEOUT_S = 10;
export const OIDC_SCOPES = 'openid profile email';

/**
 * Any OpenID Provider, through `openid-client` (certified): discovery from the issuer, the
 * authorization code flow with PKCE, `state` and `nonce`, and the ID token verified by the library
 * (its signature with the provider's key, `iss`, `aud`, `exp`, `nonce`), then the userinfo endpoint.
 *
 * The library checks an ID token's signature only with its non-repudiation checks on, so they
 * are. It asks for the provider's key set through this class's fetch, which answers from
 * `JwksCache` (fetched through the outbound client, cached, fetched again when the ID token the
 * token endpoint just answered names a key the cached set lacks): a provider that rotated its
 * keys is followed, and a token signed with a key the provider does not publish is refused.
 *
 * The discovery document is cached; the configuration built from it is not (one per sign-in).
 */
export class OidcProtocol implements SignInProtocol {
  private readonly discovered = new Map<string, { at: number; metadata: client.ServerMetadata }>();
  private readonly jwks: JwksCache;

  constructor(outbound: OutboundClient) {
    this.jwks = new JwksCache(outbound);
  }

  async check(issuer: string): Promise<void> {
    try {
      await this.discover(issuer);
    } catch (err) {
      throw new ProviderCheckFailed(`the issuer's discovery document cannot be used: ${describe(err)}`);
    }
  }

  async authorizationUrl(target: ProviderWithSecret, request: AuthorizationRequest): Promise<URL> {
    const config = await this.configuration(target);
    return client.buildAuthorizationUrl(config, {
      redirect_uri: request.redirectUri,
      scope: OIDC_SCOPES,
      state: request.state,
      nonce: request.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(request.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  async finish(target: ProviderWithSecret, request: AuthorizationRequest, callbackUrl: URL): Promise<ProviderProfile> {
    let config: client.Configuration;
    try {
      config = await this.configuration(target);
    } catch (err) {
      throw new SignInRefused(
        'provider_failed',
        `The provider's discovery document could not be read: ${describe(err)}`,
      );
    }
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: request.codeVerifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      throw refusalOf(err);
    }
    const claims = tokens.claims();
    if (!claims) throw new SignInRefused('token_invalid', 'The provider answered without an ID token.');
    const fromUserInfo = await this.userInfo(config, tokens.access_token, claims.sub);
    const merged: Record<string, unknown> = { ...fromUserInfo, ...claims };
    const subject = stringClaim(merged[target.provider.subjectClaim]);
    if (!subject) {
      throw new SignInRefused(
        'identity_invalid',
        `The provider's answer has no "${target.provider.subjectClaim}" claim.`,
      );
    }
    return {
      subject,
      displayName: stringClaim(merged.name) ?? stringClaim(merged.preferred_username),
      avatarUrl: stringClaim(merged.picture),
      email: stringClaim(merged.email),
      emailVerified: merged.email_verified === true,
      tenant: stringClaim(merged.tid),
      claims: merged,
    };
  }

  /**
   * Userinfo claims about the same subject; none when the provider has no userinfo endpoint or it
   * fails (the ID token suffices).
   */
  private async userInfo(config: client.Configuration, accessToken: string, subject: string) {
    if (!config.serverMetadata().userinfo_endpoint) return {};
    try {
      return await client.fetchUserInfo(config, accessToken, subject);
    } catch {
      return {};
    }
  }

  private async configuration({ provider, clientSecret }: ProviderWithSecret): Promise<client.Configuration> {
    const metadata = await this.discover(provider.endpoint);
    const auth =
      provider.tokenAuth === 'client_secret_post'
        ? client.ClientSecretPost(clientSecret)
        : client.ClientSecretBasic(clientSecret);
    const config = new client.Configuration(metadata, provider.clientId, undefined, auth);
    config.timeout = REQUEST_TIMEOUT_S;
    if (isPlainHttp(provider.endpoint)) client.allowInsecureRequests(config);
    client.enableNonRepudiationChecks(config);
    config[client.customFetch] = this.fetchFor(metadata);
    return config;
  }

  /**
   * The library's fetch for one sign-in: the key set from the cache, asked for the `kid` of the ID
   * token the token endpoint answered; everything else as the library would fetch it.
   */
  private fetchFor(metadata: client.ServerMetadata): client.CustomFetch {
    const jwksUri = new URL(metadata.jwks_uri!).href;
    const tokenEndpoint = new URL(metadata.token_endpoint!).href;
    let idTokenKid: string | undefined;
    return async (url, options) => {
      if (url === jwksUri) {
        const keys = await this.jwks.keysFor(jwksUri, idTokenKid);
        return new Response(JSON.stringify(keys), { status: 200, headers: { 'content-type': 'application/json' } });
      }
      const response = await fetch(url, options as RequestInit);
      if (url === tokenEndpoint && response.ok) {
        const tokens = (await response
          .clone()
          .json()
          .catch(() => undefined)) as { id_token?: unknown } | undefined;
        idTokenKid = kidOf(tokens?.id_token);
      }
      return response;
    };
  }

  private async discover(issuer: string): Promise<client.ServerMetadata> {
    const cached = this.discovered.get(issuer);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.metadata;
    const config = await client.discovery(new URL(issuer), 'discovery', undefined, undefined, {
      timeout: REQUEST_TIMEOUT_S,
      execute: isPlainHttp(issuer) ? [client.allowInsecureRequests] : [],
    });
    const metadata = config.serverMetadata();
    if (!metadata.authorization_endpoint || !metadata.token_endpoint || !metadata.jwks_uri) {
      throw new Error('it lacks authorization_endpoint, token_endpoint or jwks_uri');
    }
    this.discovered.set(issuer, { at: Date.now(), metadata });
    return metadata;
  }
}

/** The library's failure as the sign-in's refusal: the provider's own error, its answer, or the ID token. */
function refusalOf(err: unknown): SignInRefused {
  if (err instanceof client.AuthorizationResponseError) {
    return new SignInRefused('provider_denied', `The provider refused the sign-in: ${err.error}.`);
  }
  if (err instanceof client.ResponseBodyError) {
    return new SignInRefused('provider_failed', `The provider refused the code exchange: ${err.error}.`);
  }
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('OAUTH_')) {
    return new SignInRefused('token_invalid', `The provider's answer did not verify: ${describe(err)}`);
  }
  return new SignInRefused('provider_failed', `The provider could not be reached: ${describe(err)}`);
}

/** The error's own message, first line only (never a request body or a secret). */
function describe(err: unknown): string {
  const cause = (err as { cause?: unknown } | null)?.cause;
  const message = err instanceof Error ? err.message : String(err);
  const causeMessage = cause instanceof Error ? ` (${cause.message})` : '';
  return `${message}${causeMessage}`.split('\n', 1)[0]!;
}
