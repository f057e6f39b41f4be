import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/services.js';
import { ManualClock } from '../../src/config/clock.js';
import { loadConfig } from '../../src/config/config.js';
import { openPostgres, openSqlite, type Database } from '../../src/db/connect.js';
import { createApp } from '../../src/http/app.js';
import { preparedQuery } from '../../src/db/prepared-query.js';
import { createLogger } from '../../src/log/logger.js';
import { CONTENT_SECURITY_POLICY } from '../../src/ops/security-headers.js';
import { TestHub } from '../support/test-hub.js';

let hub: TestHub;

beforeAll(async () => {
  hub = await TestHub.start({
    config: { ceilings: { ...loadConfig({ HUB_CEILING_REQUEST_RATE: '3' }).ceilings } },
    app: { webDistDir: path.join(os.tmpdir(), 'hub-no-web-build') },
  });
});
afterAll(() => hub.stop());

/** The app on a database of the test's choosing, listening on a loopback port. */
async function appOn(database: Database): Promise<{ url: string; close: () => Promise<void> }> {
  const sink = new Writable({ write: (_c, _e, done) => done() });
  const config = { ...loadConfig({}), dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'hub-ops-')) };
  const services = createServices({
    config,
    db: database.writer,
    readers: database.readers,
    clock: new ManualClock(new Date()),
    logger: createLogger({ level: 'silent', destination: sink }),
  });
  const server: Server = await new Promise((resolve) => {
    const s = createApp(services).listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await database.destroy();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

describe('/healthz and /readyz', () => {
  it('answer 200 on a reachable, migrated database', async () => {
    const health = await hub.request('GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await hub.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });

  it('are matched as Express matches routes: any case, a trailing slash; nothing else under their names', async () => {
    for (const path of ['/HEALTHZ', '/healthz/', '/Readyz']) {
      const res = await hub.request('GET', path);
      expect([path, res.status]).toEqual([path, 200]);
    }
    for (const path of ['/healthzx', '/healthz/more', '/docsx']) {
      const res = await hub.request('GET', path);
      expect([path, res.status]).toEqual([path, 404]);
    }
  });

  it('/readyz answers 503 with the reason when the database does not answer; /healthz stays 200', async () => {
    // Nothing listens on port 1: the connection is refused at once.
    const app = await appOn(openPostgres('postgres://hub@127.0.0.1:1/nowhere'));
    try {
      const ready = await fetch(`${app.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'unavailable', reason: 'database unreachable' });
      const health = await fetch(`${app.url}/healthz`);
      expect(health.status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('/readyz answers 503 naming the pending migrations on a database not migrated', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-unmigrated-'));
    const app = await appOn(openSqlite(path.join(dir, 'hub.sqlite')));
    try {
      const ready = await fetch(`${app.url}/readyz`);
      expect(ready.status).toBe(503);
      const body = (await ready.json()) as { reason: string };
      expect(body.reason).toMatch(/^migrations pending: 20261122000000_identity, .*\(run "hub migrate"\)$/);
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('/readyz answers 503 while the instance drains for shutdown', async () => {
    const state = { draining: false };
    const sink = new Writable({ write: (_c, _e, done) => done() });
    const app = createApp(hub.services, { instance: state });
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`;
      expect((await fetch(url)).status).toBe(200);
      state.draining = true;
      const draining = await fetch(url);
      expect(draining.status).toBe(503);
      expect(await draining.json()).toEqual({ status: 'unavailable', reason: 'shutting down' });
    } finally {
      sink.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('/metrics', () => {
  it(
    'serves Prometheus text: requests and latency by operationId ' +
      'and status, capacity refusals, the DB pool, the process',
    async () => {
      await hub.createOrg('metered', 'ou_meter');
      const cookie = await hub.login('ou_meter');
      await hub.request('GET', '/api/me');
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push((await hub.request('GET', '/api/org/metered', { cookie })).status);
      expect(answers).toEqual([200, 200, 200, 429]);

      const res = await fetch(`${hub.url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await res.text();
      expect(text).toContain('hub_http_requests_total{operation="getMe",status="401"} 1');
      expect(text).toContain('hub_http_requests_total{operation="getOrganization",status="200"} 3');
      expect(text).toContain('hub_http_requests_total{operation="getOrganization",status="429"} 1');
      expect(text).toContain('hub_http_requests_total{operation="login",status="303"} 1');
      expect(text).toMatch(
        /hub_http_request_duration_seconds_bucket\{le="0\.1",operation="getOrganization",status="200"\} \d/,
      );
      expect(text).toContain('hub_capacity_refusals_total{code="rate_limited"} 1');
      expect(text).toContain('hub_capacity_refusals_total{code="payload_too_large"} 0');
      expect(text).toContain('hub_capacity_refusals_total{code="capacity_exceeded"} 0');
      expect(text).toMatch(/hub_db_pool_connections\{state="used"\} \d+/);
      expect(text).toMatch(/process_cpu_seconds_total \d/);
      expect(text).toMatch(/nodejs_eventloop_lag_seconds \d/);
      // Unknown paths share one label value, so a scanner cannot grow the series without bound.
      const unknownAnswered = async () => {
        const line = /^hub_http_requests_total\{operation="other",status="404"\} (\d+)$/m;
        return Number(line.exec(await (await fetch(`${hub.url}/metrics`)).text())?.[1] ?? 0);
      };
      const before = await unknownAnswered();
      await hub.request('GET', '/api/nothing-here');
      await hub.request('GET', '/healthzx');
      expect(await unknownAnswered()).toBe(before + 2);
    },
  );

  it("counts the connections of every pool of the database, SQLite's readers with its writer", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-pools-'));
    const database = openSqlite(path.join(dir, 'hub.sqlite'));
    const app = await appOn(database);
    try {
      const connections = async (): Promise<number> => {
        const text = await (await fetch(`${app.url}/metrics`)).text();
        const counts = [...text.matchAll(/^hub_db_pool_connections\{state="\w+"\} (\d+)$/gm)];
        expect(counts).toHaveLength(4);
        return counts.reduce((sum, [, count]) => sum + Number(count), 0);
      };
      await database.writer.raw('select 1');
      expect(await connections()).toBe(1);
      // A kept read through the readers opens one of their connections.
      await preparedQuery(() => database.writer.raw('select 1'))(database.readers, {});
      expect(await connections()).toBe(2);
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('/docs', () => {
  it('renders the served contract with Redoc from the npm package: no CDN, no inline script', async () => {
    const page = await fetch(`${hub.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<redoc spec-url="/openapi.yaml"');
    expect(html).toContain('<script src="/docs/redoc.standalone.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script>(?!<)/);
    const bundle = await fetch(`${hub.url}/docs/redoc.standalone.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(500_000);
    const spec = await fetch(`${hub.url}/openapi.yaml`);
    expect(spec.status).toBe(200);
  });
});

describe('security headers', () => {
  const expectHtmlPolicy = (headers: Headers) => {
    expect(headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  };

  it('every HTML answer carries the CSP, frame-ancestors none, nosniff and the referrer policy', async () => {
    expectHtmlPolicy((await fetch(`${hub.url}/docs`)).headers);
    // The admin app's page (here: the page saying it is not built) is HTML from another route.
    const app = await fetch(`${hub.url}/members`, { headers: { accept: 'text/html' } });
    expect(app.headers.get('content-type')).toMatch(/^text\/html/);
    expectHtmlPolicy(app.headers);
  });

  it('JSON answers get nosniff but no page policy', async () => {
    const res = await fetch(`${hub.url}/api/me`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});
