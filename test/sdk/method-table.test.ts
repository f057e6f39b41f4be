// The client's methods are derived from openapi.yaml: one per operationId, none without one,
// each calling its own method and path.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import {
  deriveOperations,
  deriveSchemas,
  GLOBAL_TYPE_NAMES,
  renderSchemasModule,
  SDK_EXPORT_NAMES,
} from '../../sdk/scripts/spec.mjs';
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
  const methods = Object.keys(client).filter((key) => key !== 'raw' && key !== 'paginate');
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

  it('marks only login and the sign-in redirects as redirect operations', () => {
    expect(specOperations.filter((op) => op.redirect).map((op) => op.operationId)).toEqual([
      'login',
      'startSignIn',
      'finishSignIn',
    ]);
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
    expect(() => deriveOperations(doc({ '/a': { get: { operationId: 'paginate', ...ok } } }))).toThrow('reserved');
    expect(() => deriveOperations(doc({ '/a': { get: { operationId: 'constructor', ...ok } } }))).toThrow('reserved');
    expect(() => deriveOperations(doc({ '/a/{body}': { get: { operationId: 'a', ...ok } } }))).toThrow(
      'may not be named "body"',
    );
  });
});

describe('schema type names', () => {
  const schemas = (...names: string[]) => ({ components: { schemas: Object.fromEntries(names.map((n) => [n, {}])) } });

  it('exports the Error schema as ErrorEnvelope, and every other schema by its own name', () => {
    const derived = deriveSchemas(specDocument);
    expect(derived.filter((s) => s.exportName !== s.name).map((s) => [s.name, s.exportName])).toEqual([
      ['Error', 'ErrorEnvelope'],
    ]);
    const module = renderSchemasModule(derived);
    expect(module).toContain("export type ErrorEnvelope = components['schemas']['Error'];");
    expect(module).not.toMatch(/^export type Error /m);
    expect(module).toContain('export type ErrorCode = ');
  });

  it('refuses a schema whose name would shadow a global type or an SDK export, unless renamed', () => {
    expect(() => deriveSchemas(schemas('Response'))).toThrow(
      'components.schemas.Response: would shadow the global type Response; give it another name in ' +
        'SCHEMA_EXPORT_NAMES (sdk/scripts/spec.mjs)',
    );
    expect(() => deriveSchemas(schemas('Record'))).toThrow('the global type Record');
    expect(() => deriveSchemas(schemas('ApiError'))).toThrow('would shadow the SDK type ApiError');
    expect(() => deriveSchemas(schemas('Error', 'ErrorEnvelope'))).toThrow(
      'components.schemas.Error: its export name ErrorEnvelope is another schema',
    );
    expect(deriveSchemas(schemas('Error', 'Envelope')).map((s) => s.exportName)).toEqual(['ErrorEnvelope', 'Envelope']);
    expect(GLOBAL_TYPE_NAMES.has('Error')).toBe(true);
  });

  it('knows every name the package entry exports besides the schemas', () => {
    const file = new URL('../../sdk/src/index.ts', import.meta.url);
    const source = ts.createSourceFile('index.ts', readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const exported = new Set<string>();
    for (const statement of source.statements) {
      const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
      const isExported = modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) exported.add(element.name.text);
      } else if (isExported && ts.isVariableStatement(statement)) {
        for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) exported.add(d.name.text);
      } else if (
        isExported &&
        (ts.isFunctionDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) &&
        statement.name
      ) {
        exported.add(statement.name.text);
      }
    }
    expect([...exported].sort()).toEqual([...SDK_EXPORT_NAMES].sort());
  });
});
