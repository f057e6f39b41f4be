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

// A method may not shadow the client's own members or anything an object inherits.
const RESERVED_OPERATION_IDS = new Set(['raw', 'paginate', ...Object.getOwnPropertyNames(Object.prototype)]);
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
        tokenScope: typeof operation['x-authorization']?.scope === 'string' ? operation['x-authorization'].scope : null,
        public: operation['x-authorization']?.rule === 'public',
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

/**
 * Schema names that are also the name of a global type: exported as such, the schema type
 * would shadow the global in every module that imports it (an `Error` schema hides the
 * `Error` class from `import type { Error }` and makes `import *` confusing). Each such
 * schema is exported under the name given here; one missing from this map fails generation.
 */
export const SCHEMA_EXPORT_NAMES = { Error: 'ErrorEnvelope' };

/** Global types a schema's exported name may not take: ECMAScript, fetch and TypeScript's own. */
export const GLOBAL_TYPE_NAMES = new Set([
  ...['AggregateError', 'Array', 'ArrayBuffer', 'Atomics', 'BigInt', 'BigInt64Array', 'BigUint64Array', 'Boolean'],
  ...['DataView', 'Date', 'Error', 'EvalError', 'FinalizationRegistry', 'Float32Array', 'Float64Array', 'Function'],
  ...['Int8Array', 'Int16Array', 'Int32Array', 'Intl', 'Iterator', 'JSON', 'Map', 'Math', 'Number', 'Object'],
  ...['Promise', 'Proxy', 'RangeError', 'ReferenceError', 'Reflect', 'RegExp', 'Set', 'SharedArrayBuffer', 'String'],
  ...['Symbol', 'SyntaxError', 'TypeError', 'URIError', 'Uint8Array', 'Uint8ClampedArray', 'Uint16Array'],
  ...['Uint32Array', 'WeakMap', 'WeakRef', 'WeakSet'],
  ...['AbortController', 'AbortSignal', 'Blob', 'Event', 'EventTarget', 'File', 'FormData', 'Headers'],
  ...['ReadableStream', 'Request', 'RequestInit', 'Response', 'TextDecoder', 'TextEncoder', 'URL'],
  ...['URLSearchParams', 'WritableStream'],
  ...['Awaited', 'Capitalize', 'ConstructorParameters', 'Exclude', 'Extract', 'InstanceType', 'Lowercase'],
  ...['NoInfer', 'NonNullable', 'Omit', 'Parameters', 'Partial', 'Pick', 'Readonly', 'ReadonlyArray', 'Record'],
  ...['Required', 'ReturnType', 'ThisType', 'Uncapitalize', 'Uppercase'],
]);

/** The SDK's own exports besides the schemas: a schema of the same name would be hidden by them. */
export const SDK_EXPORT_NAMES = new Set([
  ...['ApiError', 'ApiErrorCode', 'ApiErrorInit', 'CallOptions', 'OperationArgs', 'OperationMethod'],
  ...['OperationResult', 'OrgAdminClient', 'OrgAdminClientOptions', 'OrgAdminMethods', 'PageItem'],
  ...['PagedMethod', 'RetryOptions', 'components', 'createOrgAdminClient', 'operations', 'paths'],
]);

/**
 * The component schemas, in document order: `name` in the contract, `exportName` in the
 * SDK (the same, unless SCHEMA_EXPORT_NAMES renames it), and description.
 */
export function deriveSchemas(document) {
  const entries = Object.entries(document?.components?.schemas ?? {});
  const names = new Set(entries.map(([name]) => name));
  const exportNames = new Set();
  return entries.map(([name, schema]) => {
    if (!IDENTIFIER.test(name)) throw new Error(`components.schemas.${name}: not a TypeScript identifier`);
    const exportName = Object.hasOwn(SCHEMA_EXPORT_NAMES, name) ? SCHEMA_EXPORT_NAMES[name] : name;
    if (GLOBAL_TYPE_NAMES.has(exportName) || SDK_EXPORT_NAMES.has(exportName)) {
      throw new Error(
        `components.schemas.${name}: would shadow the ${GLOBAL_TYPE_NAMES.has(exportName) ? 'global' : 'SDK'} ` +
          `type ${exportName}; give it another name in SCHEMA_EXPORT_NAMES (sdk/scripts/spec.mjs)`,
      );
    }
    if (exportName !== name && names.has(exportName)) {
      throw new Error(`components.schemas.${name}: its export name ${exportName} is another schema's name`);
    }
    if (exportNames.has(exportName)) throw new Error(`components.schemas.${name}: export name ${exportName} twice`);
    exportNames.add(exportName);
    return {
      name,
      exportName,
      description: typeof schema?.description === 'string' ? schema.description : undefined,
    };
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

/** Whether an API token may call the operation, and with which scope, in its method's doc comment. */
function tokenNote(op) {
  if (op.tokenScope) return `API token scope: \`${op.tokenScope}\`.`;
  return op.public ? undefined : 'Not for API tokens: it needs a signed-in session.';
}

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
        tokenNote(op),
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

/** Doc note of a schema exported under another name than its own. */
function renamedNote(name) {
  const owner = GLOBAL_TYPE_NAMES.has(name) ? 'the global' : "the SDK's";
  return `The schema \`${name}\` of openapi.yaml, renamed: its name would shadow ${owner} \`${name}\`.`;
}

/** src/generated/schemas.ts: every component schema as a named type. */
export function renderSchemasModule(schemas) {
  const aliases = schemas.map(
    ({ name, exportName, description }) =>
      `${jsDoc([description, exportName === name ? undefined : renamedNote(name)], '')}` +
      `export type ${exportName} = components['schemas'][${quote(name)}];`,
  );
  return `${HEADER}import type { components } from './openapi.js';

${aliases.join('\n')}
`;
}
