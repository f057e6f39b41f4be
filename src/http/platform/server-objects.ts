import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';
import type { Express } from 'express';

/** node:http's constructors as what they are in Node 20: plain functions. */
type Constructor = (this: unknown, ...args: unknown[]) => void;

/** The request and response constructors of a server, and how to point them at an app. */
export interface AppServerObjects {
  /** For `http.createServer(options, listener)`. */
  options: Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'>;
  /** From now on, requests and responses are made with `app`'s own prototypes. */
  adopt(app: Express): void;
}

/**
 * Makes each request and response of a server with the Express app's own prototypes
 * (`app.request`, `app.response`) from the start, instead of node:http's.
 *
 * Express gives them those prototypes itself, with Object.setPrototypeOf on every request
 * (`app.handle`). On V8, an object whose prototype is changed that way is no longer freed by the
 * young-generation GC meant for short-lived objects: every request's objects (the request, the
 * response and all they reach) were copied, promoted to the old generation and left to the full
 * collections. Made with the right prototype, Express's call finds it in place and changes nothing
 * (what it buys: bench/README.md, "Framework bends: what each buys").
 *
 * A bend of Express and node:http (docs/architecture.md, "Where we bend Express, knex and sqlite3");
 * test/http/platform/server-objects.test.ts fails when what it leans on changes shape.
 *
 * Until `adopt` names the app (`hub serve` binds its port first), they are node:http's own.
 */
export function appServerObjects(): AppServerObjects {
  // Functions rather than classes: a class's `prototype` cannot be replaced. `new` makes the
  // object with the function's prototype of the moment, and node:http's constructor (a plain
  // function in Node 20) fills it in. Reflect.construct would do the same for a class, but V8 makes
  // objects that way by a slow path: the app's simplest GET cost twice the CPU.
  function AppRequest(this: IncomingMessage, ...args: unknown[]): void {
    (IncomingMessage as unknown as Constructor).apply(this, args);
  }
  function AppResponse(this: ServerResponse, ...args: unknown[]): void {
    (ServerResponse as unknown as Constructor).apply(this, args);
  }
  AppRequest.prototype = IncomingMessage.prototype;
  AppResponse.prototype = ServerResponse.prototype;
  return {
    options: {
      IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof ServerResponse,
    },
    adopt(app) {
      AppRequest.prototype = app.request;
      AppResponse.prototype = app.response;
    },
  };
}

/** Server options whose requests and responses are made with `app`'s prototypes from the first one. */
export function appServerOptions(app: Express): AppServerObjects['options'] {
  const objects = appServerObjects();
  objects.adopt(app);
  return objects.options;
}
