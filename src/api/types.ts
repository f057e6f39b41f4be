import type { operations } from '../../generated/openapi.js';

/**
 * Types of each operation's inputs and outputs, taken from the types openapi-typescript
 * generates from openapi.yaml. Handlers use only these, never hand-written DTOs.
 */
export type OperationId = keyof operations;

type Operation<O extends OperationId> = operations[O];
type Present<T> = [T] extends [never]
  ? Record<string, never>
  : [T] extends [undefined]
    ? Record<string, never>
    : NonNullable<T>;

export type PathParams<O extends OperationId> = Present<Operation<O>['parameters']['path']>;
export type QueryParams<O extends OperationId> = Present<Operation<O>['parameters']['query']>;

type JsonContent<T> = T extends { content: { 'application/json': infer B } } ? B : undefined;

export type RequestBody<O extends OperationId> =
  Operation<O> extends { requestBody: infer R }
    ? JsonContent<R>
    : Operation<O> extends { requestBody?: infer R }
      ? JsonContent<NonNullable<R>> | undefined
      : undefined;

export type SuccessStatus<O extends OperationId> = Extract<keyof Operation<O>['responses'], 200 | 201 | 204 | 303>;

/** The body of the operation's success response (undefined for 204 and redirects). */
export type SuccessBody<O extends OperationId> = {
  [S in SuccessStatus<O>]: JsonContent<Operation<O>['responses'][S]>;
}[SuccessStatus<O>];

/** A component schema by its name in openapi.yaml. */
export type Schema<N extends keyof import('../../generated/openapi.js').components['schemas']> =
  import('../../generated/openapi.js').components['schemas'][N];

/** Whether the operation's 200 answer is documented as `text/csv` too. */
export type AnswersCsv<O extends OperationId> = Operation<O>['responses'] extends {
  200: { content: { 'text/csv': unknown } };
}
  ? true
  : false;
