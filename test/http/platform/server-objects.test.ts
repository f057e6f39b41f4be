import fs from 'node:fs';
import http, { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { appServerObjects, appServerOptions } from '../../../src/http/platform/server-objects.js';

// The server `hub serve` runs makes each request and response with the app's own prototypes, so
// Express's per-request Object.setPrototypeOf finds them in place (src/http/platform/server-objects.ts).
// What the request listener receives is recorded before Express sees it.

interface Seen {
  request: object | null;
  response: object | null;
}

let server: http.Server | undefined;
afterEach(async () => {
  const open = server;
  server = undefined;
  if (open) await new Promise((resolve) => open.close(resolve));
});

async function serve(app: express.Express, options: http.ServerOptions) {
  const seen: Seen[] = [];
  server = http.createServer(options, (req, res) => {
    seen.push({ request: Object.getPrototypeOf(req), response: Object.getPrototypeOf(res) });
    app(req, res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  return { seen, get: (path: string) => fetch(base + path).then(async (r) => [r.status, await r.json()]) };
}

function echoApp(): express.Express {
  const app = express();
  app.get('/echo', (req, res) => {
    res.json({ isRequest: req instanceof IncomingMessage, isResponse: res instanceof ServerResponse, path: req.path });
  });
  return app;
}

describe('appServerObjects', () => {
  it("makes requests and responses with the adopted app's prototypes, and the app answers as usual", async () => {
    const app = echoApp();
    const objects = appServerObjects();
    const { seen, get } = await serve(app, objects.options);
    objects.adopt(app);
    expect(await get('/echo')).toEqual([200, { isRequest: true, isResponse: true, path: '/echo' }]);
    expect(seen).toEqual([{ request: app.request, response: app.response }]);
  });

  it("gives options (appServerOptions) that make the app's objects from the first request", async () => {
    const app = echoApp();
    const { seen, get } = await serve(app, appServerOptions(app));
    expect(await get('/echo')).toEqual([200, { isRequest: true, isResponse: true, path: '/echo' }]);
    expect(seen).toEqual([{ request: app.request, response: app.response }]);
  });

  it("makes node:http's own objects until an app is adopted", async () => {
    const app = echoApp();
    const objects = appServerObjects();
    const { seen, get } = await serve(app, objects.options);
    expect(await get('/echo')).toEqual([200, { isRequest: true, isResponse: true, path: '/echo' }]);
    objects.adopt(app);
    expect(await get('/echo')).toEqual([200, { isRequest: true, isResponse: true, path: '/echo' }]);
    expect(seen).toEqual([
      { request: IncomingMessage.prototype, response: ServerResponse.prototype },
      { request: app.request, response: app.response },
    ]);
  });
});

// What the bend leans on: the day Node or Express changes one of these, this fails before the
// server quietly pays the prototype change again (or stops making requests at all).
describe('the internals appServerObjects leans on', () => {
  it("node:http's request and response constructors are plain functions, callable on an object made elsewhere", () => {
    for (const made of [IncomingMessage, ServerResponse])
      expect(Function.prototype.toString.call(made)).toMatch(/^function \w+\(/);
  });

  it("Express's app.request and app.response inherit node:http's prototypes", () => {
    const app = express();
    expect(app.request).toBeInstanceOf(IncomingMessage);
    expect(app.response).toBeInstanceOf(ServerResponse);
  });

  it("Express gives every request and response the app's prototypes in app.handle", () => {
    const source = fs.readFileSync(createRequire(import.meta.url).resolve('express/lib/application.js'), 'utf8');
    expect(source).toContain('Object.setPrototypeOf(req, this.request)');
    expect(source).toContain('Object.setPrototypeOf(res, this.response)');
  });
});
