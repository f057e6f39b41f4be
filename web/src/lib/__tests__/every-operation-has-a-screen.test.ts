import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * Every operation of openapi.yaml is reachable from some screen: the app's sources call it through
 * the typed client (`$api.useQuery('get', '/api/…')`, `$api.useMutation(…)`, `fetchClient.GET(…)`).
 * An operation the contract gains without a screen fails this test.
 */

const WEB_SRC = fileURLToPath(new URL('../../', import.meta.url));
const CONTRACT = fileURLToPath(new URL('../../../../openapi.yaml', import.meta.url));

/** Operations a person reaches outside the app's own calls, and where. */
const REACHED_OUTSIDE_THE_CLIENT: Record<string, string> = {
  login: 'the one-time link `hub login-link` prints opens /auth/login in the browser, which lands in the app',
  startSignIn: "the sign-in page's provider buttons are links to /auth/{providerId}/start, a navigation",
  finishSignIn: 'the identity provider redirects the browser to /auth/{providerId}/callback',
};

/**
 * Operations no person calls, by design, each with who calls it instead: the host's agent runtime
 * reports runs with a service account's token and resolves credentials with the host's platform
 * runtime credential, which no session may use (docs/runtime-api.md).
 */
const NO_SCREEN_BY_DESIGN: Record<string, string> = {
  ingestUsageRuns: "the agent runtime, with a service account's `runtime` token (the console's `hub usage ingest` too)",
  resolveRuntimeCredential: "only the host's agent runtime with a `hubr_` credential; a session is refused",
};

/**
 * Operations whose screen is still to come, each with where it will be. The list only shrinks:
 * an operation named here that a screen calls fails the test, so the entry goes when the screen comes.
 */
const SCREEN_TO_COME: Record<string, string> = {};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__tests__' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/**
 * `method path` of every call the app's sources make through the typed client. A path is written in
 * the call, or in a constant of the same file (`const PATH = '/api/…'`) when its file also builds keys from it.
 */
function calledRoutes(): Set<string> {
  const calls = new Set<string>();
  const viaHooks =
    /\$api\.(?:queryOptions|use(?:Query|Mutation|InfiniteQuery|SuspenseQuery))\(\s*'(\w+)',\s*(?:'([^']+)'|(\w+))/g;
  const viaClient = /fetchClient\.(GET|POST|PUT|PATCH|DELETE)\(\s*'([^']+)'/g;
  const constants = /const ([A-Z_]+) = '([^']+)'/g;
  for (const file of sources(WEB_SRC)) {
    const text = readFileSync(file, 'utf8');
    const constant = new Map([...text.matchAll(constants)].map(([, name, value]) => [name!, value!]));
    for (const [, method, path, name] of text.matchAll(viaHooks)) {
      calls.add(`${method} ${path ?? constant.get(name!)}`);
    }
    for (const [, method, path] of text.matchAll(viaClient)) calls.add(`${method!.toLowerCase()} ${path}`);
  }
  return calls;
}

describe('the admin app', () => {
  it('calls every operation of openapi.yaml from some screen', () => {
    const contract = parse(readFileSync(CONTRACT, 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const called = calledRoutes();
    const unreached: string[] = [];
    const reachedAfterAll: string[] = [];
    for (const [path, item] of Object.entries(contract.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const id = operation?.operationId;
        if (!id || REACHED_OUTSIDE_THE_CLIENT[id] || NO_SCREEN_BY_DESIGN[id]) continue;
        const reached = called.has(`${method} ${path}`);
        if (SCREEN_TO_COME[id]) {
          if (reached) reachedAfterAll.push(id);
        } else if (!reached) unreached.push(`${id} (${method.toUpperCase()} ${path})`);
      }
    }
    expect(unreached).toEqual([]);
    expect(reachedAfterAll, 'operations with a screen now: remove them from SCREEN_TO_COME').toEqual([]);
  });
});
