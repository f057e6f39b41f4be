import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const OPENAPI_PATH = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

export const HTTP_METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface OpenApiOperation {
  operationId: string;
  'x-authorization'?: { rule: string; scope?: string; runtime?: boolean };
  /** Set on an operation that is no read (a POST) yet changes nothing: it writes no audit event. */
  'x-changes-nothing'?: boolean;
  [key: string]: unknown;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Partial<Record<HttpMethod, OpenApiOperation>> & Record<string, unknown>>;
  [key: string]: unknown;
}

export interface OperationLocation {
  operationId: string;
  method: HttpMethod;
  path: string;
  operation: OpenApiOperation;
}

/** openapi.yaml as JSON text, defined by the bundle hub starts from (bin/bundle.js); absent elsewhere. */
declare const __HUB_OPENAPI_JSON__: string | undefined;

let cached: OpenApiDocument | undefined;

/** The contract, parsed once per process. Callers that hand it to a library get a copy. */
export function loadOpenApiDocument(): OpenApiDocument {
  cached ??= (
    typeof __HUB_OPENAPI_JSON__ === 'string'
      ? JSON.parse(__HUB_OPENAPI_JSON__)
      : parse(fs.readFileSync(OPENAPI_PATH, 'utf8'))
  ) as OpenApiDocument;
  return cached;
}

/** Every operation of the document with its method and path, in document order. */
export function listOperations(doc: OpenApiDocument = loadOpenApiDocument()): OperationLocation[] {
  const out: OperationLocation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) out.push({ operationId: operation.operationId, method, path, operation });
    }
  }
  return out;
}

/** Whether the operation can change something, and so writes an audit event: no read, and not marked otherwise. */
export const changesState = ({ method, operation }: OperationLocation): boolean =>
  method !== 'get' && operation['x-changes-nothing'] !== true;

/** `/api/org/{orgSlug}/teams/{teamId}` → `/api/org/:orgSlug/teams/:teamId` */
export const toExpressPath = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1');
