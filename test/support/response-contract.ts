import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { listOperations, loadOpenApiDocument, type OperationLocation } from '../../src/http/openapi-document.js';
import { duplicateKey } from '../../src/http/pipeline/duplicate-keys.js';
import { isName } from '../../src/shared/text.js';
import { isRfc3339Timestamp } from '../../src/shared/timestamps.js';

/**
 * The contract's check of an answer as it arrived: the status among the operation's documented
 * responses, the media type among that response's, and the body — the very text the server sent,
 * parsed here — valid against the response's schema with no key given twice. The test client
 * runs it on every answer it receives, so a list the database writes as text is checked exactly
 * as an answer `res.json` serialized is: the server sends the same bytes in tests as in production.
 */

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

/** The operation a request reached, or undefined for what the contract does not describe. */
interface Route extends OperationLocation {
  pattern: RegExp;
  /** Characters outside parameters: the more, the more specific (`/projects/tree` over `/projects/{id}`). */
  literalLength: number;
}

type OpenApiObject = Record<string, unknown>;

const DOCUMENT_ID = 'openapi.yaml';

let routes: Route[] | undefined;
let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

function allRoutes(): Route[] {
  routes ??= listOperations()
    .map((op) => ({
      ...op,
      pattern: new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      literalLength: op.path.replace(/\{[^}]+\}/g, '').length,
    }))
    .sort((a, b) => b.literalLength - a.literalLength);
  return routes;
}

/** The schema validator of the contract, with the formats the server's request check uses. */
function schemaCompiler(): Ajv2020 {
  if (!ajv) {
    // The document is added whole, so every `$ref` of a schema resolves within it; the OpenAPI
    // keywords around its schemas are not JSON Schema and are left alone (strict off).
    ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats.default(ajv, ['email', 'uri']);
    ajv.addFormat('date-time', { type: 'string', validate: isRfc3339Timestamp });
    ajv.addFormat('name', { type: 'string', validate: isName });
    ajv.addSchema(loadOpenApiDocument() as OpenApiObject, DOCUMENT_ID);
  }
  return ajv;
}

/** `#/a/b` of the document, and the pointer to it; a Reference Object is followed to its target. */
function resolve(value: unknown, pointer: string): { value: OpenApiObject; pointer: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const ref = (value as OpenApiObject).$ref;
  if (typeof ref !== 'string') return { value: value as OpenApiObject, pointer };
  const target = ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node as OpenApiObject | undefined)?.[part], loadOpenApiDocument());
  return resolve(target, ref.slice(1));
}

const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

function routeOf(method: string, pathname: string): Route | undefined {
  const wanted = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  return allRoutes().find((route) => route.method === wanted && route.pattern.test(pathname));
}

/**
 * What is wrong with the answer to `method path` by the contract; an empty list when nothing is,
 * or when the contract does not describe the request (an unknown path, the web app's pages).
 */
export function contractViolations(method: string, path: string, answer: Answer): string[] {
  const pathname = new URL(path, 'http://contract.invalid').pathname;
  const route = routeOf(method, pathname);
  if (!route) return [];
  const where = `${route.operationId} (${method} ${pathname}) answered ${answer.status}`;
  const base = `/paths/${escapePointer(route.path)}/${route.method}/responses`;
  const responses = (route.operation.responses ?? {}) as OpenApiObject;
  const key = [String(answer.status), `${String(answer.status)[0]}XX`, 'default'].find((k) => k in responses);
  if (key === undefined) return [`${where}, a status its responses do not document`];
  const response = resolve(responses[key], `${base}/${key}`);
  const content = response?.value.content as OpenApiObject | undefined;
  const mediaType = answer.contentType?.split(';')[0]?.trim().toLowerCase();
  if (!content || method.toUpperCase() === 'HEAD') {
    return content || !answer.text ? [] : [`${where} with a body its response does not document`];
  }
  if (!mediaType || !(mediaType in content)) {
    return [`${where} as ${mediaType ?? 'no media type'}, not one of ${Object.keys(content).join(', ')}`];
  }
  if (mediaType !== 'application/json') return [];
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [`${where} with a body that is not JSON: ${answer.text.slice(0, 200)}`];
  }
  const twice = duplicateKey(answer.text);
  if (twice) return [`${where} with ${twice.path.replace(/^\/body/, '')} ${twice.message}`];
  const schemaPointer = `${response!.pointer}/content/${escapePointer(mediaType)}/schema`;
  let validate = validators.get(schemaPointer);
  if (!validate) {
    validate = schemaCompiler().compile({ $ref: `${DOCUMENT_ID}#${schemaPointer}` });
    validators.set(schemaPointer, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${where}: ${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}

/** Throws with every violation of the contract by the answer; the test that received it fails. */
export function expectAnswerByContract(method: string, path: string, answer: Answer): void {
  const violations = contractViolations(method, path, answer);
  if (violations.length > 0) throw new Error(`answer breaks openapi.yaml:\n  ${violations.join('\n  ')}`);
}
