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
}

export interface DerivedSchema {
  name: string;
  description: string | undefined;
}

export declare const SPEC_PATH: string;
export declare const HTTP_METHODS: readonly HttpMethod[];
export declare function readSpec(file?: string): unknown;
export declare function deriveOperations(document: unknown): DerivedOperation[];
export declare function toOperationTable(operations: readonly DerivedOperation[]): OperationTable;
export declare function deriveSchemas(document: unknown): DerivedSchema[];
export declare function renderOperationsModule(operations: readonly DerivedOperation[]): string;
export declare function renderSchemasModule(schemas: readonly DerivedSchema[]): string;
