// The contract, fuzzed: for every operation of openapi.yaml, requests generated from its own
// schemas — valid ones and ones broken on purpose — sent as the organization's OWNER to the
// real app on the test database (SQLite, and PostgreSQL when TEST_DATABASE_URL is set).
// Whatever is sent: no 5xx, every answer matches the contract for its status (TestHub checks
// every response against openapi.yaml and turns a mismatch into a 500), every error is
// `{error: {code, message}}` with a code the contract lists, and a refused request changes
// nothing in the database. FUZZ_RUNS sets the requests per operation and kind (default 30).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations, loadOpenApiDocument, type OperationLocation } from '../../src/http/openapi-document.js';
import { errorCodeOf, okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub, type HttpResult } from '../support/test-hub.js';
import {
  hostileParameter,
  invalidBody,
  resolverFor,
  validValue,
  wrongQueryValue,
  type JsonSchema,
} from './schema-arbitrary.js';
import { installWriteCounter, REQUEST_BOOKKEEPING, type WriteCounter } from '../support/write-counter.js';
import { fullScans, recordedInto } from '../support/full-scans.js';
import type { CapturedQuery } from '../../bench/lib/query-plan.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const document = loadOpenApiDocument();
const resolve = resolverFor(document);

/** Every error code the contract's error table lists, plus the router's own two. */
const CONTRACT_CODES = new Set([
  ...[
    ...String((document.info as { description?: string }).description ?? '').matchAll(/^\s*\| \d{3} \|(.*)$/gm),
  ].flatMap((row) => [...(row[1] ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1])),
  'not_found',
  'method_not_allowed',
]);

/**
 * Operations that would end the fuzzing session or need a one-time link, or that move or end the
 * fuzzed organization itself (its slug, its deletion, the OWNER's membership): sent, but not
 * generated at random (test/api/organization-lifecycle.test.ts covers them).
 */
const SKIPPED = new Set(['logout', 'login', 'renameOrganization', 'deleteOrganization', 'leaveOrganization']);

interface Parameter {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema: JsonSchema;
}

let hub: TestHub;
let org: OrgFixture;
/** Ids of real rows of the organization, so generated paths reach existing resources too. */
const pools: Record<string, string[]> = {};
let sent = 0;
/** Rows written, by table: a refused request must write none. */
let writes: WriteCounter;
/** Every statement the valid requests sent, whose plans are checked once every operation is fuzzed. */
const statements: CapturedQuery[] = [];

beforeAll(async () => {
  // A high request-rate ceiling: thousands of requests in a minute are the point here.
  hub = await TestHub.start({ config: { ceilings: { requestRate: 1e9 } } });
  writes = await installWriteCounter(hub.services.db, REQUEST_BOOKKEEPING);
  org = await seedOrg(hub, 'fuzz');
  const team = await okBody(org.call('owner', 'createTeam', { body: { slug: 'fuzz-team', name: 'Fuzz team' } }), 201);
  const folder = await okBody(org.call('owner', 'createFolder', { body: { name: 'Fuzz folder' } }), 201);
  const project = await okBody(org.call('owner', 'createProject', { body: { name: 'Fuzz project' } }), 201);
  Object.assign(pools, {
    orgSlug: [org.slug],
    // Not the fuzzing owner: a valid request could demote or revoke it, and every operation
    // fuzzed after that would stop at the role check (403) or the organization (404), testing nothing.
    userId: [org.userIds.admin, org.userIds.member],
    teamId: [team.id],
    folderId: [folder.id],
    projectId: [project.id],
    providerId: ['anthropic', 'openai'],
    roleId: ['default', 'reviewer'],
    name: ['code-review'],
  });
});
afterAll(async () => {
  console.log(`fuzz: ${sent} requests over ${listOperations().length - SKIPPED.size} operations, seed ${SEED}`);
  await hub?.stop();
});

function parametersOf(location: OperationLocation): Parameter[] {
  const pathItem = document.paths[location.path] as { parameters?: JsonSchema[] };
  const declared = [
    ...(pathItem.parameters ?? []),
    ...((location.operation.parameters as JsonSchema[] | undefined) ?? []),
  ];
  return declared.map((p) => resolve(p) as unknown as Parameter);
}

function bodySchemaOf(location: OperationLocation): JsonSchema | undefined {
  const body = location.operation.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined;
  return body?.content?.['application/json']?.schema;
}

interface GeneratedRequest {
  path: string;
  body?: unknown;
}

/** A request the operation's parameters and body schema accept (ids from the pools or made up). */
function validRequest(location: OperationLocation): fc.Arbitrary<GeneratedRequest> {
  const parameters = parametersOf(location);
  const pathValues = parameters
    .filter((p) => p.in === 'path')
    .map((p) =>
      fc.tuple(
        fc.constant(p.name),
        p.name === 'orgSlug'
          ? fc.constant(org.slug)
          : fc.oneof(fc.constantFrom(...(pools[p.name] ?? ['x'])), fc.uuid()),
      ),
    );
  const queryValues = parameters
    .filter((p) => p.in === 'query')
    .map((p) =>
      fc.tuple(
        fc.constant(p.name),
        p.required ? validValue(p.schema, resolve) : fc.option(validValue(p.schema, resolve), { nil: undefined }),
      ),
    );
  const schema = bodySchemaOf(location);
  return fc
    .record({
      path: fc.tuple(...pathValues),
      query: fc.tuple(...queryValues),
      body: schema ? validValue(schema, resolve) : fc.constant(undefined),
    })
    .map(({ path, query, body }) => ({ path: buildPath(location.path, path, query), body }));
}

/** A request broken in its body, its query or its path. */
function invalidRequest(location: OperationLocation): fc.Arbitrary<GeneratedRequest> {
  const schema = bodySchemaOf(location);
  const queryParameters = parametersOf(location).filter((p) => p.in === 'query');
  const breakers: Array<fc.MaybeWeightedArbitrary<GeneratedRequest>> = [];
  if (schema) {
    breakers.push({
      // A body has the most rules, and its breakers the most ways to break them.
      arbitrary: fc
        .tuple(validRequest(location), invalidBody(schema, resolve))
        .map(([request, body]) => ({ ...request, body })),
      weight: 4,
    });
    breakers.push(validRequest(location).map((request) => ({ ...request, body: '{"unterminated": ' })));
  }
  breakers.push(
    validRequest(location).map((request) => ({
      ...request,
      path: `${request.path}${request.path.includes('?') ? '&' : '?'}unknownParameter=1`,
    })),
  );
  for (const p of queryParameters) {
    breakers.push(
      fc.tuple(validRequest(location), wrongQueryValue(p.schema, resolve)).map(([request, value]) => {
        // The value goes in as it is sent: URLSearchParams would re-encode a malformed escape.
        const url = new URL(request.path, 'http://x');
        url.searchParams.delete(p.name);
        const rest = url.searchParams.toString();
        return { ...request, path: `${url.pathname}?${rest ? `${rest}&` : ''}${p.name}=${value}` };
      }),
    );
  }
  const segments = location.path.split('/');
  const parameterSegments = segments.flatMap((segment, i) => (/^\{[^}]+\}$/.test(segment) ? [i] : []));
  if (parameterSegments.length > 0) {
    // One path parameter holds U+0000 or percent-encoding that does not decode (the orgSlug too).
    breakers.push(
      fc
        .tuple(validRequest(location), fc.constantFrom(...parameterSegments), hostileParameter)
        .map(([request, at, value]) => {
          const [path = '', query] = request.path.split('?', 2);
          const sent = path.split('/');
          sent[at] = value;
          return { ...request, path: `${sent.join('/')}${query === undefined ? '' : `?${query}`}` };
        }),
    );
  }
  return fc.oneof(...breakers);
}

function buildPath(
  template: string,
  pathValues: Array<[string, string]>,
  queryValues: Array<[string, unknown]>,
): string {
  const values = new Map(pathValues);
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values.get(name) ?? 'x'));
  const query = new URLSearchParams();
  for (const [name, value] of queryValues) if (value !== undefined) query.set(name, String(value));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

async function send(location: OperationLocation, request: GeneratedRequest): Promise<HttpResult> {
  sent += 1;
  return hub.request(location.method.toUpperCase(), request.path, { cookie: org.cookies.owner, body: request.body });
}

/** The server's log line about a 5xx answer, which says what went wrong. */
function serverErrorOf(res: HttpResult): string {
  const requestId = res.headers.get('x-request-id') ?? '';
  return hub.logLines
    .filter((line) => line.includes(requestId) && line.includes('"err"'))
    .join('\n')
    .slice(0, 2000);
}

function expectContractAnswer(location: OperationLocation, request: GeneratedRequest, res: HttpResult): void {
  const what =
    `${location.operationId} ${location.method.toUpperCase()} ${request.path} ` +
    `${JSON.stringify(request.body)?.slice(0, 300)} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, `${what}\n${serverErrorOf(res)}`).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.body, what).toEqual({
      error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
    });
    expect(CONTRACT_CODES.has(errorCodeOf(res)), what).toBe(true);
  }
}

const fuzzed = listOperations().filter((l) => !SKIPPED.has(l.operationId));

describe.each(fuzzed.map((l) => [l.operationId, l] as const))('%s', (_operationId, location) => {
  it('answers generated valid requests within the contract', async () => {
    await fc.assert(
      fc.asyncProperty(validRequest(location), async (request) => {
        expectContractAnswer(location, request, await recordedInto(hub, statements, () => send(location, request)));
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });

  it('refuses generated invalid requests with a 4xx from the contract, changing nothing', async () => {
    let before = await writes.counts();
    await fc.assert(
      fc.asyncProperty(invalidRequest(location), async (request) => {
        const res = await send(location, request);
        expectContractAnswer(location, request, res);
        expect(
          res.status,
          `${location.operationId} ${request.path} accepted ${JSON.stringify(request.body)}`,
        ).toBeGreaterThanOrEqual(400);
        expect(
          await writes.writtenSince(before),
          `${location.operationId} ${request.path}: a refused request changed the database`,
        ).toEqual([]);
        before = await writes.counts();
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});

describe('query plans of the valid requests', () => {
  // Every operation's statements find their rows by index (test/support/full-scans.ts).
  it('no valid request of any operation sent a statement that reads a whole table', async () => {
    expect(statements.length).toBeGreaterThan(fuzzed.length);
    expect(await fullScans(hub, statements)).toEqual([]);
  });
});
