import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
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

/** Changes an ID token's claims; the token is then signed again with a key the provider publishes. */
export type IdTokenTampering = (claims: Record<string, unknown>) => Record<string, unknown>;

/**
 * A real, certified OpenID Provider (`oidc-provider`) on 127.0.0.1, with accounts of the test's
 * choosing and its development login and consent pages (walked by `TestBrowser`). `rotateKeys`
 * replaces the signing keys while it keeps serving at the same issuer.
 *
 * It listens behind a small front on its issuer's port, which passes every request through
 * unchanged, Host included, so the provider names its own URLs. `tamper` makes the front play
 * a misbehaving provider: the ID token of each token response gets the claims it returns (a
 * wrong `iss`, `aud`, `nonce` or `exp`), correctly signed with a key of its own that it then
 * publishes at `/jwks`, so only the claim check can refuse it. `forgeWith` signs the ID token
 * with a key it does not publish, so only the signature check can refuse it.
 */
export class TestOpenIdProvider {
  readonly accounts = new Map<string, AccountClaims>();
  private handler: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
  /** The keys it signs with now (public halves at its jwks_uri). */
  keys: Array<Record<string, unknown>> = [newSigningKey()];
  /** Set by a test to play a provider that issues ID tokens with wrong claims. */
  tamper: IdTokenTampering | undefined;
  /**
   * Set by a test to play a forger: each ID token is signed again, claims unchanged, with this key,
   * which the provider does not publish (its JWKS stays its own).
   */
  forgeWith: Record<string, unknown> | undefined;
  /** Requests for its key set so far. */
  jwksRequests = 0;
  private readonly tamperKey = newSigningKey();

  private constructor(
    private readonly servers: { front: Server; provider: Server },
    readonly issuer: string,
    private readonly options: OpenIdProviderOptions,
  ) {}

  static async start(options: OpenIdProviderOptions): Promise<TestOpenIdProvider> {
    const listen = async (server: Server) => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as AddressInfo).port;
    };
    const servers = { front: http.createServer(), provider: http.createServer() };
    const [frontPort, providerPort] = [await listen(servers.front), await listen(servers.provider)];
    const provider = new TestOpenIdProvider(servers, `http://127.0.0.1:${frontPort}`, options);
    servers.provider.on('request', (req, res) => provider.handler(req, res));
    servers.front.on('request', (req, res) => provider.pass(req, res, providerPort));
    provider.build();
    return provider;
  }

  /** The front: the request through to the provider, and its answer back (tampered with when asked). */
  private pass(req: IncomingMessage, res: ServerResponse, providerPort: number): void {
    const path = req.url ?? '/';
    const upstream = http.request(
      { host: '127.0.0.1', port: providerPort, method: req.method, path, headers: req.headers },
      async (answer) => {
        const chunks: Buffer[] = [];
        for await (const chunk of answer) chunks.push(chunk as Buffer);
        let body = Buffer.concat(chunks);
        if (this.tamper && path.startsWith('/jwks')) {
          body = Buffer.from(JSON.stringify({ keys: [publicHalf(this.tamperKey)] }));
        } else if (this.tamper && path.startsWith('/token') && answer.statusCode === 200) {
          const tokens = JSON.parse(body.toString('utf8')) as { id_token: string };
          tokens.id_token = signJwt(this.tamper(claimsOf(tokens.id_token)), this.tamperKey);
          body = Buffer.from(JSON.stringify(tokens));
        } else if (this.forgeWith && path.startsWith('/token') && answer.statusCode === 200) {
          const tokens = JSON.parse(body.toString('utf8')) as { id_token: string };
          tokens.id_token = signJwt(claimsOf(tokens.id_token), this.forgeWith);
          body = Buffer.from(JSON.stringify(tokens));
        }
        if (path.startsWith('/jwks')) this.jwksRequests += 1;
        const headers = { ...answer.headers, 'content-length': String(body.length) };
        delete headers['transfer-encoding'];
        res.writeHead(answer.statusCode ?? 502, headers);
        res.end(body);
      },
    );
    req.pipe(upstream);
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
    for (const server of [this.servers.front, this.servers.provider]) {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    }
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
      // `tid` with every token, as Entra ID sends its tenant; `groups` as directories send them
      // (an account given `_claim_names` instead plays Entra ID's overage).
      claims: {
        openid: ['sub', 'tid', 'groups'],
        profile: ['name', 'picture'],
        email: ['email', 'email_verified'],
      },
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

function publicHalf(jwk: Record<string, unknown>): Record<string, unknown> {
  const key = createPublicKey({ key: jwk as never, format: 'jwk' });
  return { ...key.export({ format: 'jwk' }), kid: jwk.kid, alg: 'RS256', use: 'sig' };
}

function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

function signJwt(claims: Record<string, unknown>, jwk: Record<string, unknown>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode({ alg: 'RS256', typ: 'JWT', kid: jwk.kid })}.${encode(claims)}`;
  const signature = sign('sha256', Buffer.from(input), createPrivateKey({ key: jwk as never, format: 'jwk' }));
  return `${input}.${signature.toString('base64url')}`;
}
