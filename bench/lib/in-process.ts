import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Services } from '../../src/app/services.js';
import type { Db } from '../../src/db/connect.js';
import { createApp } from '../../src/http/app.js';
import { appServerOptions } from '../../src/http/platform/server-objects.js';
import { type ClientAnswer, HttpClientChild } from './http-client.js';
import type { HubServe } from './hub-serve.js';
import type { ScratchDb } from './scratch-db.js';

/**
 * Our app on a loopback port of this process, its server made as `hub serve` makes it: requests
 * and responses with the app's own prototypes (src/http/platform/server-objects.ts), so that what a case
 * times over HTTP is what production runs. `origin` is `http://127.0.0.1:<port>`.
 */
export async function listenInProcess(services: Services): Promise<{ server: http.Server; origin: string }> {
  const app = createApp(services);
  const server = http.createServer(appServerOptions(app), app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Logs a user in through the real one-time link flow; returns the Cookie header value. */
export async function login(services: Services, imOpenId: string): Promise<string> {
  const link = await services.sessions.issueLoginLink(imOpenId);
  const session = await services.sessions.redeemLoginLink(link.token);
  return `hub_session=${session.token}`;
}

/** A response read whole: its status, its size, its time, and its text when it was asked for (or was not a 200). */
export type Answer = ClientAnswer;

/**
 * GET with the session cookie, sent by the client process and read to the end there (the timing
 * includes the body), bounded in time. The text crosses back only when the status is not 200: a
 * timed call needs the status alone (`readJson` brings the text, for checks).
 */
export function getJson(client: HttpClientChild, url: string, cookie: string, timeoutMs: number): Promise<Answer> {
  return get(client, url, cookie, timeoutMs, false);
}

/** getJson with the answer's text. */
export async function readJson(
  client: HttpClientChild,
  url: string,
  cookie: string,
  timeoutMs: number,
): Promise<Answer & { text: string }> {
  const answer = await get(client, url, cookie, timeoutMs, true);
  return { ...answer, text: answer.text ?? '' };
}

function get(client: HttpClientChild, url: string, cookie: string, timeoutMs: number, wantText: boolean) {
  return client.request({ method: 'GET', url, headers: { accept: 'application/json', cookie }, timeoutMs, wantText });
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
  /** A `hub serve` process on the scratch database. */
  hub?: HubServe;
  private client?: HttpClientChild;

  /**
   * The HTTP client process the case's requests go through, started on first use: the server runs in
   * this process, and a client here would spend this thread's time (and heap) on reading the answers.
   */
  httpClient(): HttpClientChild {
    this.client ??= HttpClientChild.start();
    return this.client;
  }

  async release(): Promise<void> {
    const { server, scratch, client, hub } = this;
    this.server = undefined;
    this.scratch = undefined;
    this.client = undefined;
    this.hub = undefined;
    client?.stop();
    await hub?.stop();
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
