// The contract's validator finds each request's path by matching it with the path's pattern,
// compiled once (patches/express-openapi-validator+5.6.2.patch): compiling it afresh on every
// request was ~5 % of the CPU of a cheap GET. The patch leaving the install would show here.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectOk } from '../support/assertions.js';
import { type ActorName, seedActors } from '../support/actors.js';
import { TestHub } from '../support/test-hub.js';

const require = createRequire(import.meta.url);
/** The module the validator compiles its patterns with (the router compiles its own at start). */
const pathPatterns = require('path-to-regexp') as { pathToRegexp: (...args: unknown[]) => unknown };

let hub: TestHub;
let cookies: Record<ActorName, string | undefined>;
beforeAll(async () => {
  hub = await TestHub.start();
  cookies = await seedActors(hub);
});
afterAll(() => hub.stop());

describe('route lookup of the contract validator', () => {
  it("compiles a path's pattern once, however many requests take the path", async () => {
    const members = () => hub.orgCall('acme', cookies.admin, 'listMembers', { query: {} });
    expectOk(await members());
    const compiles = vi.spyOn(pathPatterns, 'pathToRegexp');
    try {
      for (let i = 0; i < 5; i++) expectOk(await members());
      expect(compiles).not.toHaveBeenCalled();
    } finally {
      compiles.mockRestore();
    }
  });
});
