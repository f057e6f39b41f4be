/**
 * Client SDK of the Org Admin Service. Everything typed here is generated from the service's
 * openapi.yaml at build time (src/generated/): the operation table, the method interface and
 * the schema types.
 *
 * @example
 * const hub = createOrgAdminClient({ baseUrl: location.origin, orgSlug: 'acme' });
 * const project = await hub.getProject({ projectId });
 */
import type { Client } from 'openapi-fetch';
import { bindClient, type OrgAdminClientOptions } from './client.js';
import type { operations, paths } from './generated/openapi.js';
import { operationTable, type OrgAdminMethods } from './generated/operations.js';

/** One method per operationId of the contract, plus `raw`, the typed openapi-fetch client. */
export type OrgAdminClient = OrgAdminMethods & {
  /**
   * The underlying openapi-fetch client, typed by the contract's `paths`. It shares the
   * client's base URL, fetch, headers and credentials but does not bind `orgSlug`, and it
   * answers `{ data, error, response }` instead of throwing.
   */
  readonly raw: Client<paths>;
};

/**
 * Creates a client bound to one organization. In a browser it sends same-origin cookie
 * credentials; in Node pass the session cookie through `headers` (`{ cookie }`).
 */
export function createOrgAdminClient(options: OrgAdminClientOptions): OrgAdminClient {
  return bindClient<operations, paths>(operationTable, options);
}

export { ApiError } from './errors.js';
export type { ApiErrorInit } from './errors.js';
export type { OrgAdminClientOptions } from './client.js';
export type { CallOptions, OperationArgs, OperationMethod, OperationResult } from './operation-types.js';
export type { OrgAdminMethods } from './generated/operations.js';
export type { components, operations, paths } from './generated/openapi.js';
export * from './generated/schemas.js';
