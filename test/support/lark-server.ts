import { createHash, randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A user as the platform's user-info endpoint describes them (`data`). */
export interface LarkUser {
  open_id: string;
  union_id: string;
  name: string;
  en_name?: string;
  avatar_url?: string;
  email?: string;
  tenant_key?: string;
}

interface IssuedCode {
  user: LarkUser;
  redirectUri: string;
  challenge: string;
}

/**
 * The chat platform's OAuth 2 web sign-in as it publishes the contract, on 127.0.0.1: the
 * authorize page (the person `signedIn` consents at once and is sent back with `code` and
 * `state`), the v2 token endpoint (JSON body; checks the app's id and secret, the code, the
 * redirect URI and the PKCE verifier; answers `code: 0` or a non-zero `code`), and the user-info
 * endpoint (Bearer token; the user under `data`). `failTokenWith` makes the token endpoint refuse.
 */
export class LarkContractServer {
  /** Who is signed in at the platform when the browser reaches the authorize page. */
  signedIn: LarkUser | undefined;
  /** A non-zero `code` for the token endpoint to answer with instead of a token. */
  failTokenWith: number | undefined;
  private readonly codes = new Map<string, IssuedCode>();
  private readonly tokens = new Map<string, LarkUser>();

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
    private readonly app: { id: string; secret: string },
  ) {}

  static async start(app: { id: string; secret: string }): Promise<LarkContractServer> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const lark = new LarkContractServer(server, `http://127.0.0.1:${port}`, app);
    server.on('request', (req, res) => void lark.handle(req, res));
    return lark;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    if (req.method === 'GET' && url.pathname === '/open-apis/authen/v1/authorize') return this.authorize(url, res);
    if (req.method === 'POST' && url.pathname === '/open-apis/authen/v2/oauth/token') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      return this.token(req, Buffer.concat(chunks).toString('utf8'), res);
    }
    if (req.method === 'GET' && url.pathname === '/open-apis/authen/v1/user_info') return this.userInfo(req, res);
    json(res, 404, { code: 404, msg: 'not found' });
  }

  private authorize(url: URL, res: ServerResponse): void {
    const p = url.searchParams;
    const redirectUri = p.get('redirect_uri');
    if (p.get('client_id') !== this.app.id || !redirectUri || p.get('code_challenge_method') !== 'S256') {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid authorize request');
      return;
    }
    if (!this.signedIn) {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Sign in to the platform</p>');
      return;
    }
    const code = randomBytes(16).toString('hex');
    this.codes.set(code, { user: this.signedIn, redirectUri, challenge: p.get('code_challenge') ?? '' });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', p.get('state') ?? '');
    res.writeHead(302, { location: back.href }).end();
  }

  private token(req: IncomingMessage, text: string, res: ServerResponse): undefined {
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return json(res, 400, { code: 20001, error: 'invalid_request', error_description: 'JSON body required' });
    }
    const body = JSON.parse(text) as Record<string, string>;
    if (this.failTokenWith !== undefined) {
      return json(res, 400, { code: this.failTokenWith, error: 'server_error', error_description: 'refused' });
    }
    const issued = this.codes.get(body.code ?? '');
    this.codes.delete(body.code ?? '');
    const verifierMatches =
      issued !== undefined &&
      createHash('sha256')
        .update(body.code_verifier ?? '')
        .digest('base64url') === issued.challenge;
    if (body.client_id !== this.app.id || body.client_secret !== this.app.secret) {
      return json(res, 401, {
        code: 20002,
        error: 'invalid_client',
        error_description: 'client authentication failed',
      });
    }
    if (body.grant_type !== 'authorization_code' || !issued || body.redirect_uri !== issued.redirectUri) {
      return json(res, 400, { code: 20003, error: 'invalid_grant', error_description: 'invalid code' });
    }
    if (!verifierMatches) {
      return json(res, 400, { code: 20010, error: 'invalid_grant', error_description: 'code_verifier mismatch' });
    }
    const accessToken = `u-${randomBytes(16).toString('hex')}`;
    this.tokens.set(accessToken, issued.user);
    json(res, 200, { code: 0, access_token: accessToken, expires_in: 7200, token_type: 'Bearer', scope: '' });
  }

  private userInfo(req: IncomingMessage, res: ServerResponse): undefined {
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token) return json(res, 400, { code: 99991661, msg: 'Missing access token for authorization.' });
    const user = this.tokens.get(token);
    if (!user) return json(res, 401, { code: 99991668, msg: 'Invalid access token for authorization.' });
    json(res, 200, { code: 0, msg: 'success', data: user });
  }
}

/** Answers JSON; `undefined`, so a handler can answer and return in one statement. */
function json(res: ServerResponse, status: number, body: unknown): undefined {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}
