/**
 * `hub serve` as operators start it, for the cases that time what a hub process answers: the
 * script itself (`npm start` runs it, with whatever node flags its interpreter line names), on the bundle
 * `npm ci` builds, in a process of its own with nothing of the bench's in its heap.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { buildBundle } from '../../bin/bundle.js';
import { inheritedEnvironment } from './env.js';

const HUB_BIN = fileURLToPath(new URL('../../bin/hub.js', import.meta.url));
const READY_TIMEOUT_MS = 60_000;

/** Where a hub serves from: its data directory, and its PostgreSQL database when there is one. */
export interface HubData {
  dataDir: string;
  databaseUrl: string | undefined;
}

/** A loopback port nothing listens on at the moment. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Makes hub's bundle current, as installed: `npm ci` writes it (the `prepare` script); after a
 * source edit it is stale, and hub would compile its sources as it starts instead.
 */
export const prepareHub = (): Promise<unknown> => buildBundle();

/**
 * Spawns `hub serve` on `data` and `port` (stdout, its request log, on /dev/null), pinned to `cpu`
 * when given. `env` adds to the environment, e.g. a ceiling no timed loop should reach.
 */
export function spawnHubServe(
  data: HubData,
  port: number,
  options: { cpu?: string; env?: NodeJS.ProcessEnv } = {},
): ChildProcess {
  const [command, args] = options.cpu ? ['taskset', ['-c', options.cpu, HUB_BIN, 'serve']] : [HUB_BIN, ['serve']];
  return spawn(command, args, {
    env: {
      ...inheritedEnvironment(),
      ...options.env,
      HUB_DATA_DIR: data.dataDir,
      DATABASE_URL: data.databaseUrl ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** A running `hub serve`, ready to answer. */
export interface HubServe {
  baseUrl: string;
  pid: number;
  /** SIGTERM, and waits for the process to exit; never throws. */
  stop(): Promise<void>;
}

/** Starts `hub serve` on `data` and resolves once its /readyz answers 200 (the database answers too). */
export async function startHubServe(
  data: HubData,
  options: { cpu?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<HubServe> {
  await prepareHub();
  const port = await freePort();
  const proc = spawnHubServe(data, port, options);
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    proc.once('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  const stop = async (): Promise<void> => {
    if (exitCode === undefined) proc.kill('SIGTERM');
    await exited;
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (exitCode !== undefined) throw new Error(`hub serve exited (code ${exitCode}) before it was ready`);
    if (performance.now() - started > READY_TIMEOUT_MS) {
      await stop();
      throw new Error(`hub serve was not ready within ${READY_TIMEOUT_MS / 1000} s`);
    }
    const status = await fetch(`${baseUrl}/readyz`).then(
      async (r) => {
        await r.arrayBuffer();
        return r.status;
      },
      () => 0,
    );
    if (status === 200) return { baseUrl, pid: proc.pid!, stop };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
