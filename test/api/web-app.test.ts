/**
 * The admin app is served at `/` with an SPA fallback: its own routes get index.html
 * so deep links survive a reload, but the API, the login flow, the operations endpoints and a
 * missing asset keep their own 404s, and only a browser asking for HTML gets the app.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestHub } from '../support/test-hub.js';

const INDEX =
  '<!doctype html><html><head><title>Org Admin</title></head><body><div id="root"></div>' +
  '<script type="module" src="/assets/index-abc123.js"></script></body></html>';
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

let hub: TestHub;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app");');
  hub = await TestHub.start({ app: { webDistDir: dist } });
  await hub.createOrg('demo', 'olivia');
});
afterAll(async () => {
  await hub.stop();
  rmSync(dist, { recursive: true, force: true });
});

describe('the admin app at /', () => {
  it('answers / with index.html, not cached', async () => {
    const res = await hub.request('GET', '/', { headers: HTML });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toBe(INDEX);
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers a deep link of the app with index.html, signed in or not', async () => {
    for (const route of ['/o/demo/members', '/o/demo/projects/123', '/o/demo/teams/abc']) {
      const res = await hub.request('GET', route, { headers: HTML });
      expect(res.status, route).toBe(200);
      expect(res.text).toBe(INDEX);
    }
    const cookie = await hub.login('olivia');
    const signedIn = await hub.request('GET', '/o/demo/my-projects', { cookie, headers: HTML });
    expect(signedIn.status).toBe(200);
    expect(signedIn.text).toBe(INDEX);
  });

  it('serves the built assets, cacheable for good', async () => {
    const res = await hub.request('GET', '/assets/index-abc123.js', { headers: { accept: '*/*' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.text).toBe('console.log("app");');
    expect(res.headers.get('cache-control')).toMatch(/immutable/);
  });

  it('never answers the API, the login flow or the operations endpoints with the app', async () => {
    for (const route of ['/api/nope', '/api/org/demo/nope', '/auth/nope']) {
      const res = await hub.request('GET', route, { headers: HTML });
      expect(res.status, route).toBe(404);
      expect(res.text, route).not.toContain('<div id="root">');
    }
    const api = await hub.request('GET', '/api/nope');
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
    expect(api.body).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    for (const route of ['/metrics', '/healthz', '/readyz', '/docs']) {
      const res = await hub.request('GET', route, { headers: HTML });
      expect(res.text, route).not.toContain('<div id="root">');
    }
  });

  it('answers a missing asset or any path with a file extension with 404, not the app', async () => {
    for (const route of ['/assets/missing.js', '/assets/no-extension', '/favicon.ico', '/o/demo/report.csv']) {
      const res = await hub.request('GET', route, { headers: HTML });
      expect(res.status, route).toBe(404);
      expect(res.text, route).not.toContain('<div id="root">');
    }
  });

  it('gives the app only to a client asking for HTML', async () => {
    const json = await hub.request('GET', '/o/demo/members', { headers: { accept: 'application/json' } });
    expect(json.status).toBe(404);
    expect(json.text).not.toContain('<div id="root">');
  });

  it('serves the contract at /openapi.yaml', async () => {
    const res = await hub.request('GET', '/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^openapi: 3\.1\.0/m);
  });
});

describe('without a build', () => {
  it('tells the person to build the app instead of failing silently', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'web-empty-'));
    const bare = await TestHub.start({ app: { webDistDir: empty } });
    try {
      const res = await bare.request('GET', '/o/demo/members', { headers: HTML });
      expect(res.status).toBe(503);
      expect(res.text).toContain('npm run build -w web');
    } finally {
      await bare.stop();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
