// The SDK's client as the tests use it. The package entry (sdk/src/index.ts) binds the
// operation table that its build generates into sdk/src/generated/ (not committed); here the
// same client is built from the same derivation (sdk/scripts/spec.mjs) run on the current
// openapi.yaml, typed by the committed generated/openapi.d.ts. So these tests and the root
// type-check work on a fresh checkout, and e2e.test.ts covers the built package itself.
import type { components, operations, paths } from '../../../generated/openapi.js';
import { bindClient, type OrgAdminClientOptions } from '../../../sdk/src/client.js';
import { type ApiErrorClass, ApiError as ApiErrorOf } from '../../../sdk/src/errors.js';
import type { OperationClient } from '../../../sdk/src/operation-types.js';
import { deriveOperations, readSpec, toOperationTable } from '../../../sdk/scripts/spec.mjs';

export const specDocument = readSpec();
export const specOperations = deriveOperations(specDocument);
export const operationTable = toOperationTable(specOperations);

export type TestClient = OperationClient<operations, paths>;

export function createOrgAdminClient(options: OrgAdminClientOptions): TestClient {
  return bindClient<operations, paths>(operationTable, options);
}

/** ApiError as the package entry (sdk/src/index.ts) exports it: `code` typed by the contract. */
export type TestApiErrorCode = components['schemas']['ErrorCode'] | 'http_error';
export type TestApiError = ApiErrorOf<TestApiErrorCode>;
export const TestApiError = ApiErrorOf as ApiErrorClass<TestApiErrorCode>;
