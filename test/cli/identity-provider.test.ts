import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runHub } from '../support/hub-cli.js';
import { TestOpenIdProvider } from '../support/openid-provider.js';
import { signInThrough } from '../support/sign-in-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { TEST_ORIGIN, TestHub } from '../support/test-hub.js';

const SECRET = 'Sup3r-Secret-Client-Value-9f8e7d';
let hub: TestHub;
let idp: TestOpenIdProvider;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  hub = await TestHub.start({ config: { outboundAllowPrivate: true } });
  idp = await TestOpenIdProvider.start({
    clientId: 'hub-console',
    clientSecret: SECRET,
    redirectUris: [`${TEST_ORIGIN}/auth/keycloak/callback`],
  });
  env = cliEnv(hub.database.dataDir, hub.database.databaseUrl, {
    HUB_OUTBOUND_ALLOW_PRIVATE: '1',
    HUB_BASE_URL: TEST_ORIGIN,
  });
});

afterAll(async () => {
  await idp?.stop();
  await hub?.stop();
});

const providerRows = () => hub.services.db('identity_providers').select('*');

/** Every column of every identity-provider row, and the database files on disk, without the plaintext secret. */
async function expectSecretNowhere(secret: string): Promise<void> {
  for (const row of await providerRows()) {
    for (const value of Object.values(row)) {
      const bytes = Buffer.isBuffer(value) ? value : Buffer.from(String(value));
      expect(bytes.includes(Buffer.from(secret))).toBe(false);
    }
  }
  if (hub.database.engine === 'sqlite') {
    for (const file of ['hub.sqlite', 'hub.sqlite-wal']) {
      const full = path.join(hub.database.dataDir, file);
      if (fs.existsSync(full)) expect(fs.readFileSync(full).includes(Buffer.from(secret))).toBe(false);
    }
  }
}

const SET_KEYCLOAK = () => [
  'identity-provider',
  'set',
  'keycloak',
  '--kind',
  'oidc',
  '--label',
  'Company SSO',
  '--issuer',
  idp.issuer,
  '--client-id',
  'hub-console',
];

describe('hub identity-provider', () => {
  it('set: reads the secret from stdin, seals it, prints the redirect URI to register, never the secret', async () => {
    const result = await runHub(SET_KEYCLOAK(), env, `${SECRET}\n`);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^created identity provider keycloak \(oidc, "Company SSO"\), enabled; client secret sealed with key [\w-]+; /,
    );
    expect(result.stdout).toContain(`redirect URI to register: ${TEST_ORIGIN}/auth/keycloak/callback`);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
    await expectSecretNowhere(SECRET);
  });

  it('the provider it stored signs people in through the running service', async () => {
    idp.addAccount('console-user', { name: 'Console User' });
    const b = new TestBrowser({ [TEST_ORIGIN]: hub.url });
    const answer = await signInThrough(b, 'keycloak', 'console-user', '/o/x');
    expect(answer.headers.get('location')).toBe('/o/x');
  });

  it('list: one line per provider, with the key that seals its secret and never the secret', async () => {
    const result = await runHub(['identity-provider', 'list'], env);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.split('\t').slice(0, 5)).toEqual(['keycloak', 'oidc', 'enabled', 'Company SSO', idp.issuer]);
    expect(result.stdout).not.toContain(SECRET);
  });

  it('set: takes the secret from HUB_IDP_CLIENT_SECRET, replacing the settings and sealing a new version', async () => {
    const other = 'Another-Secret-From-The-Environment';
    const result = await runHub(
      [...SET_KEYCLOAK(), '--email-domains', 'example.com', '--token-auth', 'client_secret_post'],
      { ...env, HUB_IDP_CLIENT_SECRET: other },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^updated identity provider keycloak/);
    expect(result.stdout + result.stderr).not.toContain(other);
    const [row] = await providerRows();
    expect(row).toMatchObject({ secret_version: 2, token_auth: 'client_secret_post' });
    expect(JSON.parse(row.allowed_email_domains)).toEqual(['example.com']);
    await expectSecretNowhere(other);
  });

  it('refuses bad input with one line and exit 2, storing nothing', async () => {
    const before = JSON.stringify(await providerRows());
    const cases: Array<{ args: string[]; input?: string; env?: Record<string, string>; says: RegExp }> = [
      { args: ['identity-provider', 'set', 'x', '--kind', 'saml', '--label', 'L', '--client-id', 'c'], says: /--kind/ },
      {
        args: [...SET_KEYCLOAK().slice(0, 2), 'x', ...SET_KEYCLOAK().slice(3), '--client-secret', SECRET],
        says: /never the command line/,
      },
      {
        args: [...SET_KEYCLOAK().slice(0, 2), 'x', ...SET_KEYCLOAK().slice(3)],
        env: { HUB_OUTBOUND_ALLOW_PRIVATE: '0' },
        says: /--issuer must be an https URL/,
      },
      {
        args: [
          ...['identity-provider', 'set', 'x', '--kind', 'oidc', '--label', 'L', '--client-id', 'c'],
          ...['--issuer', 'http://127.0.0.1:9/realms/none'],
        ],
        says: /--issuer: the issuer's discovery document cannot be used/,
      },
      {
        args: ['identity-provider', 'set', 'x', '--kind', 'lark', '--label', 'L', '--client-id', 'cli_x'],
        says: /--allowed-tenants is required/,
      },
      { args: SET_KEYCLOAK(), input: '', says: /no client secret given/ },
      {
        args: [...SET_KEYCLOAK(), '--email-domains', 'a.example', '--allowed-email-domains', 'b.example'],
        says: /give --email-domains once \(--allowed-email-domains is its old name\)/,
      },
      {
        args: ['identity-provider', 'set', 'x', '--kind', 'lark', '--label', 'L', '--client-id', 'cli_x'].concat([
          '--allowed-tenants',
          't1',
          // The old name is read as --email-domains.
          '--allowed-email-domains',
          'a.example',
        ]),
        says: /--email-domains is for --kind oidc/,
      },
      { args: ['identity-provider', 'disable', 'nobody'], says: /no enabled identity provider "nobody"/ },
    ];
    for (const { args, input, env: extra, says } of cases) {
      const result = await runHub(args, { ...env, ...extra }, input ?? `${SECRET}\n`);
      const label = args.join(' ');
      expect(result.code, label).toBe(2);
      expect(result.stdout, label).toBe('');
      expect(result.stderr.trimEnd().split('\n'), label).toHaveLength(1);
      expect(result.stderr, label).toMatch(says);
      expect(result.stderr, label).not.toContain(SECRET);
    }
    expect(JSON.stringify(await providerRows())).toBe(before);
  });

  it('disable: the provider leaves the sign-in page and no sign-in starts through it', async () => {
    const result = await runHub(['identity-provider', 'disable', 'keycloak'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('disabled identity provider keycloak: no sign-in starts or finishes through it\n');
    expect((await hub.call('listSignInProviders')).body).toEqual({ providers: [], loginLinks: 'on' });
    const start = await hub.request('GET', '/auth/keycloak/start');
    expect(start.headers.get('location')).toBe('/signin?error=provider_unavailable');
    expect((await runHub(['identity-provider', 'list'], env)).stdout).toMatch(/^keycloak\toidc\tdisabled\t/);
  });

  it('--links-im-open-id: one enabled provider at most; a second is refused naming the first', async () => {
    const first = await runHub([...SET_KEYCLOAK(), '--links-im-open-id'], env, `${SECRET}\n`);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('a first sign-in through keycloak joins the member added with that imOpenId');
    const before = JSON.stringify(await providerRows());
    const second = await runHub(
      [...SET_KEYCLOAK().map((arg) => (arg === 'keycloak' ? 'partner' : arg)), '--links-im-open-id'],
      env,
      `${SECRET}\n`,
    );
    expect(second.code).toBe(2);
    expect(second.stdout).toBe('');
    expect(second.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(second.stderr).toContain('identity provider "keycloak" already links first sign-ins to members by imOpenId');
    expect(JSON.stringify(await providerRows())).toBe(before);
    // Without the flag the same provider is taken, and says what its first sign-ins do.
    const plain = await runHub(
      SET_KEYCLOAK().map((arg) => (arg === 'keycloak' ? 'partner' : arg)),
      env,
      `${SECRET}\n`,
    );
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('a first sign-in through partner makes a new user');
    const lines = (await runHub(['identity-provider', 'list'], env)).stdout.trimEnd().split('\n');
    expect(
      lines.map((line) => [line.split('\t')[0], line.split('\t').find((f) => f.startsWith('links-im-open-id='))]),
    ).toEqual([
      ['keycloak', 'links-im-open-id=yes'],
      ['partner', 'links-im-open-id=no'],
    ]);
  });
});
