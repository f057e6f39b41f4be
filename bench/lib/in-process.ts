import type http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Services } from '../../src/app/services.js';
import type { Db } from '../../src/db/connect.js';
import type { ScratchDb } from './scratch-db.js';

/** Logs a user in through the real one-time link flow; returns the Cookie header value. */
export async function login(services: Services, imOpenId: string): Promise<string> {
  const link = await services.sessions.issueLoginLink(imOpenId);
  const session = await services.sessions.redeemLoginLink(link.token);
  return `hub_session=${session.token}`;
}

/** A response read whole: its status, its size and its text. */
export interface Answer {
  status: number;
  bytes: number;
  text: string;
}

/** GET with the session cookie, read to the end (the timing includes the body), bounded in time. */
export async function getJson(url: string, cookie: string, timeoutMs: number): Promise<Answer> {
  const response = await fetch(url, {
    headers: { accept: 'application/json', cookie },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, bytes: body.length, text: body.toString('utf8') };
}

/**
 * Requests whose client went away still run to completion; destroying knex under them aborts
 * their queries noisily. Waits, boundedly, until no query holds or awaits a connection.
 */
export async function waitForIdlePool(db: Db, timeoutMs = 2_000): Promise<void> {
  const pool = db.client.pool as { numUsed?(): number; numPendingAcquires?(): number } | undefined;
  const busy = () => (pool?.numUsed?.() ?? 0) + (pool?.numPendingAcquires?.() ?? 0) > 0;
  for (const deadline = Date.now() + timeoutMs; busy() && Date.now() < deadline; ) await sleep(20);
}

/** What an in-process case holds, so abort() (Ctrl-C, an error) can release it once. */
export class HeldResources {
  server?: http.Server;
  scratch?: ScratchDb;

  async release(): Promise<void> {
    const { server, scratch } = this;
    this.server = undefined;
    this.scratch = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    if (scratch) {
      await waitForIdlePool(scratch.db);
      await scratch.drop();
    }
  }
}
