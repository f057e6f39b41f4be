import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { cliEnv, runHub } from '../support/hub-cli.js';
import { TestOpenIdProvider } from '../support/openid-provider.js';
import { signInAtProvider, startSignIn } from '../support/sign-in-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { TEST_ORIGIN } from '../support/test-hub.js';
import { Instance, request, SHARED_KEYS } from './instances.js';

/**
 * Two `hub serve` processes on one database, behind one public origin (HUB_BASE_URL): a sign-in
 * started through one finishes through the other, as behind a load balancer without sticky
 * sessions. The pending sign-in is in the database, so this holds on PostgreSQL, and
 * on SQLite for two processes sharing the file.
 */
const SECRET = 'oidc-client-secret-for-tests';
let database: TestDatabase;
let idp: TestOpenIdProvider;
let a: Instance;
let b: Instance;

/** A port nothing listens on now, for an instance that must know its own before it starts. */
async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  database = await createTestDatabase();
  idp = await TestOpenIdProvider.start({
    clientId: 'hub',
    clientSecret: SECRET,
    redirectUris: [`${TEST_ORIGIN}/auth/corp/callback`],
  });
  const common = { HUB_BASE_URL: TEST_ORIGIN, HUB_OUTBOUND_ALLOW_PRIVATE: '1', ...SHARED_KEYS };
  // hub commands other than serve and migrate never create a database: make it first.
  const migrated = await runHub(['migrate'], cliEnv(database.dataDir, database.databaseUrl, common));
  expect(migrated.code, migrated.stderr).toBe(0);
  const set = await runHub(
    [
      'identity-provider',
      'set',
      'corp',
      '--kind',
      'oidc',
      '--label',
      'Corp',
      '--issuer',
      idp.issuer,
      '--client-id',
      'hub',
      // Its subjects are the members' imOpenIds: it holds the linking authority.
      '--links-im-open-id',
    ],
    cliEnv(database.dataDir, database.databaseUrl, { ...common, HUB_IDP_CLIENT_SECRET: SECRET }),
  );
  expect(set.code, set.stderr).toBe(0);
  // On SQLite both share the data directory, and with it the database file.
  const start = async (name: string) =>
    Instance.start(
      name,
      database.databaseUrl ?? '',
      { ...common, PORT: String(await freePort()) },
      database.databaseUrl ? undefined : database.dataDir,
    );
  a = await start('sign-in-a');
  b = await start('sign-in-b');
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await idp?.stop();
  await database?.drop();
});

describe(`sign-in across two hub serve processes (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('starts through one process and finishes through the other, with a session both accept', async () => {
    idp.addAccount('rae', { name: 'Rae Across' });
    const browser = new TestBrowser({ [TEST_ORIGIN]: a.url });
    const callback = new URL(await signInAtProvider(browser, await startSignIn(browser, 'corp', '/o/x'), 'rae'));
    const finished = await fetch(`${b.url}${callback.pathname}${callback.search}`, {
      headers: { cookie: browser.cookieHeader(TEST_ORIGIN) },
      redirect: 'manual',
    });
    expect(finished.status).toBe(303);
    expect(finished.headers.get('location')).toBe('/o/x');
    const session = finished.headers
      .getSetCookie()
      .find((c) => c.startsWith('hub_session='))
      ?.split(';')[0];
    expect(session).toBeDefined();
    for (const instance of [a, b]) {
      const me = await request('GET', `${instance.url}/api/me`, { cookie: session });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ user: { imOpenId: 'rae', displayName: 'Rae Across' } });
    }
  });

  it('refuses the callback through the other process when the browser is not the one that started', async () => {
    idp.addAccount('sam');
    const browser = new TestBrowser({ [TEST_ORIGIN]: a.url });
    const callback = new URL(await signInAtProvider(browser, await startSignIn(browser, 'corp'), 'sam'));
    const finished = await fetch(`${b.url}${callback.pathname}${callback.search}`, { redirect: 'manual' });
    expect(finished.status).toBe(303);
    expect(finished.headers.get('location')).toMatch(/^\/signin\?error=/);
    expect(finished.headers.getSetCookie().some((c) => c.startsWith('hub_session='))).toBe(false);
  });
});
