// Types of spec.mjs, for the tests that share its derivation.
import type { HttpMethod, OperationTable } from '../src/operation-types.js';

export interface DerivedOperation {
  operationId: string;
  method: HttpMethod;
  path: string;
  pathParams: string[];
  redirect: boolean;
  summary: string | undefined;
  description: string | undefined;
  /** The scope an API token needs for it (`x-authorization.scope`); null: tokens cannot call it. */
  tokenScope: string | null;
  /** `x-authorization.rule` is `public`: anyone may call it. */
  public: boolean;
}

export interface DerivedSchema {
  /** The schema's name in openapi.yaml. */
  name: string;
  /** The name the SDK exports it under: `name`, unless SCHEMA_EXPORT_NAMES renames it. */
  exportName: string;
  description: string | undefined;
}

export declare const SPEC_PATH: string;
export declare const HTTP_METHODS: readonly HttpMethod[];
export declare const SCHEMA_EXPORT_NAMES: Readonly<Record<string, string>>;
export declare const GLOBAL_TYPE_NAMES: ReadonlySet<string>;
export declare const SDK_EXPORT_NAMES: ReadonlySet<string>;
export declare function readSpec(file?: string): unknown;
export declare function deriveOperations(document: unknown): DerivedOperation[];
export declare function toOperationTable(operations: readonly DerivedOperation[]): OperationTable;
export declare function deriveSchemas(document: unknown): DerivedSchema[];
export declare function renderOperationsModule(operations: readonly DerivedOperation[]): string;
export declare function renderSchemasModule(schemas: readonly DerivedSchema[]): string;
