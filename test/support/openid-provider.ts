import { generateKeyPairSync, randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** The claims an account at the provider has, beside its `sub`. */
export type AccountClaims = Record<string, unknown>;

export interface OpenIdProviderOptions {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  /** How the client authenticates at the token endpoint. */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post';
}

/** A fresh RS256 signing key as a private JWK with its own `kid`. */
export function newSigningKey(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

/**
 * A real, certified OpenID Provider (`oidc-provider`) on 127.0.0.1, with accounts of the test's
 * choosing and its development login and consent pages (walked by `TestBrowser`). `rotateKeys`
 * replaces the signing keys while it keeps serving at the same issuer.
 */
export class TestOpenIdProvider {
  readonly accounts = new Map<string, AccountClaims>();
  private handler: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
  /** The keys it signs with now (public halves at its jwks_uri). */
  keys: Array<Record<string, unknown>> = [newSigningKey()];

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    private readonly options: OpenIdProviderOptions,
  ) {}

  static async start(options: OpenIdProviderOptions): Promise<TestOpenIdProvider> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const provider = new TestOpenIdProvider(server, `http://127.0.0.1:${port}`, options);
    server.on('request', (req, res) => provider.handler(req, res));
    provider.build();
    return provider;
  }

  /** Adds (or replaces) an account that can sign in with any password. */
  addAccount(sub: string, claims: AccountClaims = {}): void {
    this.accounts.set(sub, claims);
  }

  /** New signing keys, the old ones gone from its JWKS, at the same issuer. */
  rotateKeys(): void {
    this.keys = [newSigningKey()];
    this.build();
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  private build(): void {
    const { clientId, clientSecret, redirectUris, tokenEndpointAuthMethod } = this.options;
    const provider = new Provider(this.issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: redirectUris,
          response_types: ['code'],
          grant_types: ['authorization_code'],
          token_endpoint_auth_method: tokenEndpointAuthMethod ?? 'client_secret_basic',
        },
      ],
      findAccount: (_ctx, sub) => {
        const claims = this.accounts.get(sub);
        if (!claims) return undefined;
        return { accountId: sub, claims: () => ({ sub, ...claims }) };
      },
      claims: { openid: ['sub'], profile: ['name', 'picture'], email: ['email', 'email_verified'], tid: ['tid'] },
      cookies: { keys: ['test-provider-cookie-key'] },
      jwks: { keys: this.keys },
      pkce: { required: () => true },
      features: { devInteractions: { enabled: true } },
      ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
    });
    // It warns about its development pages and in-memory storage; both are the point here.
    provider.on('server_error', () => undefined);
    this.handler = provider.callback();
  }
}
