import {
  type AuthorizationRequest,
  ProviderCheckFailed,
  type ProviderProfile,
  type ProviderWithSecret,
  type SignInProtocol,
  SignInRefused,
  stringClaim,
} from './protocol.js';

/** The platform's API base when `--base-url` is not given (Feishu); Lark's is `https://open.larksuite.com`. */
export const LARK_DEFAULT_BASE_URL = 'https://open.feishu.cn';
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * The platform's hosted pages live on an `accounts.` host beside the `open.` API host (Feishu and
 * Lark alike); any other base URL (a proxy, a test double) serves both.
 */
export function larkAccountsBase(apiBase: string): string {
  const url = new URL(apiBase);
  if (url.hostname === 'open.feishu.cn' || url.hostname === 'open.larksuite.com') {
    url.hostname = url.hostname.replace(/^open\./, 'accounts.');
  }
  return url.origin + url.pathname.replace(/\/$/, '');
}

const apiUrl = (base: string, path: string) => `${base.replace(/\/$/, '')}${path}`;

/**
 * The chat platform's own OAuth 2 web sign-in, as it publishes it: its authorize page (with PKCE),
 * the v2 token endpoint taking a JSON body, and the user-info endpoint, whose answer nests the user
 * under `data`. Every answer carries a numeric `code`; anything but 0 is a refusal.
 */
export class LarkProtocol implements SignInProtocol {
  async check(apiBase: string): Promise<void> {
    // The user-info endpoint without a token must answer the platform's JSON envelope (a refusal).
    let body: unknown;
    try {
      const response = await fetch(apiUrl(apiBase, '/open-apis/authen/v1/user_info'), {
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        redirect: 'manual',
      });
      body = await response.json();
    } catch (err) {
      throw new ProviderCheckFailed(`the base URL does not answer as the platform's API: ${(err as Error).message}`);
    }
    if (typeof (body as { code?: unknown } | null)?.code !== 'number') {
      throw new ProviderCheckFailed("the base URL does not answer with the platform's JSON envelope");
    }
  }

  async authorizationUrl({ provider }: ProviderWithSecret, request: AuthorizationRequest): Promise<URL> {
    const url = new URL(apiUrl(larkAccountsBase(provider.endpoint), '/open-apis/authen/v1/authorize'));
    url.search = new URLSearchParams({
      client_id: provider.clientId,
      redirect_uri: request.redirectUri,
      state: request.state,
      code_challenge: await s256(request.codeVerifier),
      code_challenge_method: 'S256',
    }).toString();
    return url;
  }

  async finish(target: ProviderWithSecret, request: AuthorizationRequest, callbackUrl: URL): Promise<ProviderProfile> {
    const code = callbackUrl.searchParams.get('code');
    if (!code) throw new SignInRefused('provider_failed', 'The platform sent no authorization code.');
    const token = await this.call(target.provider.endpoint, '/open-apis/authen/v2/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({
        grant_type: 'authorization_code',
        client_id: target.provider.clientId,
        client_secret: target.clientSecret,
        code,
        redirect_uri: request.redirectUri,
        code_verifier: request.codeVerifier,
      }),
    });
    const accessToken = stringClaim(token.access_token);
    if (!accessToken) throw new SignInRefused('provider_failed', 'The platform answered without an access token.');
    const info = await this.call(target.provider.endpoint, '/open-apis/authen/v1/user_info', {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const user = (info.data ?? {}) as Record<string, unknown>;
    const subject = stringClaim(user.open_id);
    if (!subject) throw new SignInRefused('identity_invalid', "The platform's user info has no open_id.");
    const email = stringClaim(user.email) ?? stringClaim(user.enterprise_email);
    return {
      subject,
      displayName: stringClaim(user.name) ?? stringClaim(user.en_name),
      avatarUrl: stringClaim(user.avatar_url),
      email,
      // The platform does not say whether an address was verified, so no email-domain rule applies
      // to it (`set` refuses --allowed-email-domains for this kind); the tenant allow-list does.
      emailVerified: false,
      tenant: stringClaim(user.tenant_key),
      claims: user,
    };
  }

  /** One API call; its JSON answer when `code` is 0, else a refusal naming the platform's code. */
  private async call(base: string, path: string, init: RequestInit): Promise<Record<string, unknown>> {
    let body: Record<string, unknown>;
    try {
      const response = await fetch(apiUrl(base, path), {
        ...init,
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      body = (await response.json()) as Record<string, unknown>;
    } catch (err) {
      throw new SignInRefused('provider_failed', `The platform could not be reached: ${(err as Error).message}`);
    }
    if (typeof body !== 'object' || body === null || body.code !== 0) {
      const code = typeof body?.code === 'number' ? body.code : 'none';
      throw new SignInRefused('provider_failed', `The platform refused ${path} (code ${code}).`);
    }
    return body;
  }
}

async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return Buffer.from(digest).toString('base64url');
}
