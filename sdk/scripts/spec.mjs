// Reads openapi.yaml and derives what the SDK generates from it: the operation table (one
// entry per operationId), the client's method interface and the named schema types.
// Shared by the build (scripts/generate.mjs) and the tests (test/sdk), so both see the
// same derivation.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** The contract: ../openapi.yaml, next to this package. */
export const SPEC_PATH = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

// A method may not shadow the client's own member or anything an object inherits.
const RESERVED_OPERATION_IDS = new Set(['raw', ...Object.getOwnPropertyNames(Object.prototype)]);
// A path parameter of these names would collide with the method argument's own keys.
const RESERVED_PATH_PARAMS = new Set(['query', 'body']);
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function readSpec(file = SPEC_PATH) {
  return parse(readFileSync(file, 'utf8'));
}

/** Every operation of the document, in document order. Throws on anything the SDK cannot map. */
export function deriveOperations(document) {
  const operations = [];
  const seen = new Set();
  for (const [path, item] of Object.entries(document?.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item?.[method];
      if (!operation) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const id = operation.operationId;
      if (typeof id !== 'string' || !IDENTIFIER.test(id)) {
        throw new Error(`${where}: operationId ${JSON.stringify(id)} is missing or not a JavaScript identifier`);
      }
      if (RESERVED_OPERATION_IDS.has(id)) throw new Error(`${where}: operationId "${id}" is reserved by the client`);
      if (seen.has(id)) throw new Error(`${where}: operationId "${id}" is used twice`);
      seen.add(id);
      const pathParams = [...path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]);
      for (const name of pathParams) {
        if (RESERVED_PATH_PARAMS.has(name)) throw new Error(`${where}: a path parameter may not be named "${name}"`);
      }
      const codes = Object.keys(operation.responses ?? {});
      // An operation whose only success is a redirect (login) must not follow it.
      const redirect = !codes.some((c) => /^2(\d\d|XX)$/i.test(c)) && codes.some((c) => /^3(\d\d|XX)$/i.test(c));
      operations.push({
        operationId: id,
        method,
        path,
        pathParams,
        redirect,
        summary: typeof operation.summary === 'string' ? operation.summary : undefined,
        description: typeof operation.description === 'string' ? operation.description : undefined,
      });
    }
  }
  return operations;
}

/** The runtime table the client is built from: operationId → { method, path, redirect? }. */
export function toOperationTable(operations) {
  return Object.fromEntries(
    operations.map((op) => [
      op.operationId,
      { method: op.method, path: op.path, ...(op.redirect ? { redirect: 'manual' } : {}) },
    ]),
  );
}

/** The component schemas: name and description, in document order. */
export function deriveSchemas(document) {
  return Object.entries(document?.components?.schemas ?? {}).map(([name, schema]) => {
    if (!IDENTIFIER.test(name)) throw new Error(`components.schemas.${name}: not a TypeScript identifier`);
    return { name, description: typeof schema?.description === 'string' ? schema.description : undefined };
  });
}

const HEADER = '// Generated from openapi.yaml by sdk/scripts/generate.mjs. Do not edit.\n';

/** A TypeScript string literal in single quotes. */
function quote(text) {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n')}'`;
}

function jsDoc(paragraphs, indent) {
  const text = paragraphs
    .filter((p) => p !== undefined && p.trim() !== '')
    .map((p) => p.trim())
    .join('\n\n')
    .replaceAll('*/', '*\\/');
  if (!text) return '';
  const lines = text.split('\n').map((line) => `${indent} *${line ? ` ${line}` : ''}`);
  return `${indent}/**\n${lines.join('\n')}\n${indent} */\n`;
}

/** src/generated/operations.ts: the runtime table and the method interface. */
/** How the SDK sends an operation answered by a redirect (the login link), in its method's doc comment. */
const REDIRECT_NOTE =
  "SDK: sent with `redirect: 'manual'`; the redirect is not followed, and the method resolves to " +
  '`undefined` once the server answered with it. In a browser the cookie it sets is stored by the browser.';

export function renderOperationsModule(operations) {
  const rows = operations.map((op) => {
    const redirect = op.redirect ? ", redirect: 'manual'" : '';
    return `  ${op.operationId}: { method: ${quote(op.method)}, path: ${quote(op.path)}${redirect} },`;
  });
  const members = operations.map((op) => {
    const doc = jsDoc(
      [
        op.summary,
        op.description,
        op.redirect ? REDIRECT_NOTE : undefined,
        `\`${op.method.toUpperCase()} ${op.path}\` (operation \`${op.operationId}\`)`,
      ],
      '  ',
    );
    return `${doc}  readonly ${op.operationId}: OperationMethod<operations[${quote(op.operationId)}]>;`;
  });
  return `${HEADER}import type { Expect, OperationMethod, OperationTableFor, SameKeys } from '../operation-types.js';
import type { operations, paths } from './openapi.js';

/**
 * Every operation of the contract, by operationId: its method and path template. The
 * \`satisfies\` clause fails the build when an entry does not name exactly the operation of
 * that path and method in the generated types, or when an operation has no entry.
 */
export const operationTable = {
${rows.join('\n')}
} as const satisfies OperationTableFor<operations, paths>;

/** One method per operationId of openapi.yaml. */
export interface OrgAdminMethods {
${members.join('\n')}
}

/** Fails the build when the interface and the generated operations disagree. */
export type MethodsCoverOperations = Expect<SameKeys<keyof OrgAdminMethods, keyof operations>>;
`;
}

/** src/generated/schemas.ts: every component schema as a named type. */
export function renderSchemasModule(schemas) {
  const aliases = schemas.map(
    ({ name, description }) =>
      `${jsDoc([description], '')}export type ${name} = components['schemas'][${quote(name)}];`,
  );
  return `${HEADER}import type { components } from './openapi.js';

${aliases.join('\n')}
`;
}
