/** The real `hub` command and the real HTTP API, for setting up what the browser tests look at. */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loginUrl, openRuntime, type Runtime } from '../../../src/cli/runtime';
import { serverBaseUrl } from '../../../src/cli/server-record';
import { loadConfig } from '../../../src/config/config';

/** HUB_E2E_HUB_BIN runs another checkout's server (e.g. a snapshot while the working tree is mid-edit). */
export const HUB_BIN = process.env.HUB_E2E_HUB_BIN ?? fileURLToPath(new URL('../../../bin/hub.js', import.meta.url));

export function hubEnv(): NodeJS.ProcessEnv {
  const baseUrl = process.env.HUB_E2E_BASE_URL;
  const dataDir = process.env.HUB_E2E_DATA_DIR;
  if (!baseUrl || !dataDir)
    throw new Error('the browser suite runs through its global setup (playwright test -c web/playwright.config.ts)');
  return { ...process.env, HUB_DATA_DIR: dataDir, HUB_BASE_URL: baseUrl, LOG_LEVEL: 'warn' };
}

/** Runs `hub <args>` on the test server's data directory; returns stdout without the final newline. */
export function hub(args: string[]): string {
  return execFileSync(process.execPath, [HUB_BIN, ...args], { env: hubEnv(), encoding: 'utf8' }).trim();
}

let console_: Promise<Runtime> | undefined;

/**
 * A one-time login link, made as `hub login-link` makes it (the host console's runtime on the
 * server's data directory, opened once per process) without starting a process per sign-in; the
 * browser or `apiAs` then exchanges it over HTTP like any link. Another checkout's server
 * (HUB_E2E_HUB_BIN) gets its links from its own `hub`, whose schema this checkout may not know.
 */
export async function loginLink(imOpenId: string): Promise<string> {
  if (process.env.HUB_E2E_HUB_BIN) return hub(['login-link', imOpenId]);
  console_ ??= openRuntime({ config: loadConfig(hubEnv()) });
  const runtime = await console_;
  const link = await runtime.sessions.issueLoginLink(imOpenId);
  return loginUrl(serverBaseUrl(runtime.config), link.token);
}

/** Closes the console runtime loginLink opened, if it did. */
export async function closeConsole(): Promise<void> {
  const opened = console_;
  console_ = undefined;
  if (opened) await (await opened).close();
}

export type Api = {
  cookie: string;
  call<T = { id: string; userId: string }>(method: string, path: string, body?: unknown): Promise<T>;
};

/** Signs in through a login link (as a browser would) and calls the API with that session. */
export async function apiAs(imOpenId: string): Promise<Api> {
  const baseUrl = process.env.HUB_E2E_BASE_URL!;
  const res = await fetch(await loginLink(imOpenId), { redirect: 'manual' });
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (res.status !== 303 || !cookie.startsWith('hub_session='))
    throw new Error(`login of ${imOpenId} failed: ${res.status}`);
  return {
    cookie,
    async call(method, path, body) {
      const r = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          cookie,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      if (!r.ok) throw new Error(`${method} ${path} → ${r.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    },
  };
}
