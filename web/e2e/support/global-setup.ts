/**
 * Starts the real server (`node bin/hub.js serve`) on a temporary data directory and a free port,
 * and seeds the organizations the tests use through `hub` and the API. The tests reach it through
 * HUB_E2E_BASE_URL / HUB_E2E_DATA_DIR / HUB_E2E_SEED, which workers inherit.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { TestOpenIdProvider } from '../../../test/support/openid-provider';
import { closeConsole, HUB_BIN, hub, hubEnv } from './hub';
import { seed } from './seed';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(url: string, server: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null)
      throw new Error(`hub serve exited with ${server.exitCode}; see .ci-out/playwright/server.log`);
    try {
      // Any answer from the API (401 without a session) means it is listening.
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`hub serve was not ready within ${timeoutMs} ms`);
}

/** The identity provider people sign in with in the suite: a real OpenID Provider on loopback. */
export const E2E_PROVIDER = { id: 'company', label: 'Company SSO', clientId: 'hub-e2e', secret: 'e2e-client-secret' };

export default async function globalSetup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'hub-e2e-'));
  const port = await freePort();
  // Domain verification asks a loopback port nobody listens on: the lookup is refused at once, so
  // a spec sees the server's words for a missing record without any query leaving the machine.
  const closedDnsPort = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const idp = await TestOpenIdProvider.start({
    clientId: E2E_PROVIDER.clientId,
    clientSecret: E2E_PROVIDER.secret,
    redirectUris: [`${baseUrl}/auth/${E2E_PROVIDER.id}/callback`],
  });
  idp.addAccount('olivia', { name: 'Olivia Owner', email: 'olivia@example.com', email_verified: true });
  // Invitees (invitations.spec.ts): people with no membership until they accept a link.
  idp.addAccount('ivy', { name: 'Ivy Invitee', email: 'ivy@example.com', email_verified: true });
  idp.addAccount('walt', { name: 'Walt Visitor', email: 'walt@example.com', email_verified: true });
  idp.addAccount('wendy', { name: 'Wendy Visitor', email: 'wendy@example.com', email_verified: true });
  const logDir = fileURLToPath(new URL('../../../.ci-out/playwright/', import.meta.url));
  mkdirSync(logDir, { recursive: true });
  const log = createWriteStream(join(logDir, 'server.log'));
  const server = spawn(process.execPath, [HUB_BIN, 'serve'], {
    env: {
      ...process.env,
      HUB_DATA_DIR: dataDir,
      PORT: String(port),
      HUB_BASE_URL: baseUrl,
      LOG_LEVEL: 'warn',
      // The suite makes many requests in a minute from one organization.
      HUB_CEILING_REQUEST_RATE: '100000',
      // The suite's OpenID Provider listens on loopback over plain http.
      HUB_OUTBOUND_ALLOW_PRIVATE: '1',
      HUB_DNS_SERVERS: `127.0.0.1:${closedDnsPort}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  process.env.HUB_E2E_BASE_URL = baseUrl;
  process.env.HUB_E2E_DATA_DIR = dataDir;
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    log.end();
    await idp.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilReady(`${baseUrl}/api/me`, server, 120_000);
    process.env.HUB_E2E_SEED = JSON.stringify(await seed(hub));
    await closeConsole();
    // Not through the synchronous `hub`: the provider answering its discovery runs in this process.
    const { id, label, clientId, secret } = E2E_PROVIDER;
    await promisify(execFile)(
      process.execPath,
      [HUB_BIN, 'identity-provider', 'set', id, '--kind', 'oidc', '--label', label].concat([
        '--issuer',
        idp.issuer,
        '--client-id',
        clientId,
        // Its accounts are the seeded members' imOpenIds: it speaks for that namespace here.
        '--links-im-open-id',
        // Every account it holds is at example.com; it vouches for those addresses (invitations).
        '--email-domains',
        'example.com',
      ]),
      { env: { ...hubEnv(), HUB_OUTBOUND_ALLOW_PRIVATE: '1', HUB_IDP_CLIENT_SECRET: secret } },
    );
  } catch (error) {
    await stop(); // a failed setup must not leave a server behind
    throw error;
  }
  return stop;
}
