/**
 * Client SDK of the Org Admin Service. Everything typed here is generated from the service's
 * openapi.yaml at build time (src/generated/): the operation table, the method interface and
 * the schema types.
 *
 * @example
 * const hub = createOrgAdminClient({ baseUrl: location.origin, orgSlug: 'acme' });
 * const project = await hub.getProject({ projectId });
 */
import { bindClient, type OrgAdminClientOptions } from './client.js';
import { type ApiErrorClass, type ApiErrorInit as ApiErrorInitOf, ApiError as ApiErrorOf } from './errors.js';
import type { operations, paths } from './generated/openapi.js';
import { operationTable, type OrgAdminMethods } from './generated/operations.js';
import type { ErrorCode } from './generated/schemas.js';
import type { ClientMembers } from './operation-types.js';

/** One method per operationId of the contract, plus `raw` and `paginate`. */
export type OrgAdminClient = OrgAdminMethods & ClientMembers<paths>;

/**
 * Creates a client bound to one organization. In a browser it sends same-origin cookie
 * credentials; on a server pass an API token (`token`), or the session cookie through
 * `headers` (`{ cookie }`).
 */
export function createOrgAdminClient(options: OrgAdminClientOptions): OrgAdminClient {
  return bindClient<operations, paths>(operationTable, options);
}

/** What `ApiError.code` may be: a code of the contract's `ErrorCode`, or `http_error`. */
export type ApiErrorCode = ErrorCode | 'http_error';
/**
 * An HTTP answer outside 200–299. `code` is typed by the contract, so
 * `if (error.code === 'last_owner')` narrows and a misspelt code does not compile.
 */
export type ApiError = ApiErrorOf<ApiErrorCode>;
/** The class of the errors the client throws; `instanceof ApiError` narrows `code` to `ApiErrorCode`. */
export const ApiError = ApiErrorOf as ApiErrorClass<ApiErrorCode>;
export type ApiErrorInit = ApiErrorInitOf<ApiErrorCode>;
export type { OrgAdminClientOptions } from './client.js';
export type { CallOptions, OperationArgs, OperationMethod, OperationResult } from './operation-types.js';
export type { PagedMethod, PageItem } from './paginate.js';
export type { RetryOptions } from './retry.js';
export type { OrgAdminMethods } from './generated/operations.js';
export type { components, operations, paths } from './generated/openapi.js';
export * from './generated/schemas.js';
