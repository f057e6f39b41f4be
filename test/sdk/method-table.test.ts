// The client's methods are derived from openapi.yaml: one per operationId, none without one,
// each calling its own method and path.
import { describe, expect, it } from 'vitest';
import { deriveOperations } from '../../sdk/scripts/spec.mjs';
import { createOrgAdminClient, specDocument, specOperations } from './support/client.js';
import { BASE, recordRequests, useMockServer } from './support/msw.js';

const server = useMockServer();

type SpecOperation = {
  operationId?: string;
  requestBody?: { required?: boolean };
  parameters?: Array<{ in?: string; name?: string; required?: boolean }>;
};
type SpecDocument = { paths: Record<string, Record<string, SpecOperation>> };

/** The operations of openapi.yaml, read here without the SDK's derivation. */
function operationsInYaml() {
  const document = specDocument as SpecDocument;
  const found: Array<{ operationId: string; method: string; path: string; operation: SpecOperation }> = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'].includes(method)) continue;
      found.push({
        operationId: operation.operationId ?? `(no operationId: ${method} ${path})`,
        method,
        path,
        operation,
      });
    }
  }
  return found;
}

describe('method table', () => {
  const client = createOrgAdminClient({ baseUrl: BASE, orgSlug: 'acme' });
  const methods = Object.keys(client).filter((key) => key !== 'raw');
  const inYaml = operationsInYaml();

  it('has as many methods as openapi.yaml has operations, login included', () => {
    expect(methods).toHaveLength(inYaml.length);
    expect(methods).toContain('login');
  });

  it('has a method for every operation of openapi.yaml', () => {
    const missing = inYaml.map((op) => op.operationId).filter((id) => !methods.includes(id));
    expect(missing, 'operations without a method').toEqual([]);
  });

  it('has no method without an operation of openapi.yaml', () => {
    const ids = new Set(inYaml.map((op) => op.operationId));
    expect(
      methods.filter((name) => !ids.has(name)),
      'methods without an operation',
    ).toEqual([]);
    expect(typeof client.raw.GET).toBe('function');
  });

  it('calls each operation on its own method and path', async () => {
    const requests = recordRequests(server);
    const call = client as unknown as Record<string, (args: Record<string, unknown>) => Promise<unknown>>;
    const expected: string[] = [];
    for (const { operationId, method, path, operation } of inYaml) {
      const args: Record<string, unknown> = {};
      for (const [, name] of path.matchAll(/\{([^{}]+)\}/g)) if (name !== 'orgSlug') args[name as string] = `${name}-1`;
      const requiredQuery = (operation.parameters ?? []).filter((p) => p.in === 'query' && p.required);
      if (requiredQuery.length) args.query = Object.fromEntries(requiredQuery.map((p) => [p.name, 'q']));
      if (operation.requestBody) args.body = {};
      await call[operationId]!(args);
      expected.push(
        `${method.toUpperCase()} ` +
          path.replace(/\{([^{}]+)\}/g, (_, name: string) => (name === 'orgSlug' ? 'acme' : `${name}-1`)),
      );
    }
    expect(requests.map((r) => `${r.method} ${r.pathname}`)).toEqual(expected);
  });

  it('marks only login as a redirect operation', () => {
    expect(specOperations.filter((op) => op.redirect).map((op) => op.operationId)).toEqual(['login']);
  });
});

describe('derivation from the document', () => {
  const doc = (paths: Record<string, unknown>) => ({ paths });
  const ok = { responses: { '200': {} } };

  it('derives method, path, path parameters and redirect', () => {
    expect(
      deriveOperations(
        doc({
          '/a/{orgSlug}/b/{bId}': { get: { operationId: 'getB', ...ok }, delete: { operationId: 'deleteB', ...ok } },
          '/go': { get: { operationId: 'go', responses: { '303': {}, '401': {} } } },
        }),
      ).map(({ operationId, method, path, pathParams, redirect }) => ({
        operationId,
        method,
        path,
        pathParams,
        redirect,
      })),
    ).toEqual([
      {
        operationId: 'getB',
        method: 'get',
        path: '/a/{orgSlug}/b/{bId}',
        pathParams: ['orgSlug', 'bId'],
        redirect: false,
      },
      {
        operationId: 'deleteB',
        method: 'delete',
        path: '/a/{orgSlug}/b/{bId}',
        pathParams: ['orgSlug', 'bId'],
        redirect: false,
      },
      { operationId: 'go', method: 'get', path: '/go', pathParams: [], redirect: true },
    ]);
  });

  it('refuses what the client could not map', () => {
    expect(() => deriveOperations(doc({ '/a': { get: ok } }))).toThrow(
      'GET /a: operationId undefined is missing or not a JavaScript identifier',
    );
    expect(() => deriveOperations(doc({ '/a': { get: { operationId: 'get-a', ...ok } } }))).toThrow(
      'not a JavaScript identifier',
    );
    expect(() =>
      deriveOperations(doc({ '/a': { get: { operationId: 'x', ...ok } }, '/b': { get: { operationId: 'x', ...ok } } })),
    ).toThrow('GET /b: operationId "x" is used twice');
    expect(() => deriveOperations(doc({ '/a': { get: { operationId: 'raw', ...ok } } }))).toThrow('reserved');
    expect(() => deriveOperations(doc({ '/a': { get: { operationId: 'constructor', ...ok } } }))).toThrow('reserved');
    expect(() => deriveOperations(doc({ '/a/{body}': { get: { operationId: 'a', ...ok } } }))).toThrow(
      'may not be named "body"',
    );
  });
});
