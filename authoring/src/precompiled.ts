/**
 * The validators of cph's own schemas (course.yaml's and the shipped kinds), compiled ahead of time by
 * ajv's standalone code generator into `authoring/generated/` (`npm run generate -w @agent-hub/cph`,
 * authoring/scripts/generate-validators.ts). A run then neither generates nor compiles validator code:
 * that was ~25 ms of a cold `cph check` or `cph build`, the largest part of cph's own start-up.
 *
 * Each validator is keyed by the exact text of the schema file it was made from. A schema edited since
 * (a checkout not yet regenerated, an edited install) gets no precompiled validator, and is compiled at
 * run time as before: a stale validator never checks a course. A test keeps the committed ones current.
 */
import course from '../generated/course-validator.cjs';
import kinds from '../generated/kind-validators.cjs';
import type { Validator } from './kinds.js';

/** A generated module: per schema name, its validator and the schema text it was made from. */
export interface PrecompiledModule {
  readonly [name: `source:${string}`]: string | undefined;
  readonly [name: `validate:${string}`]: Validator | undefined;
}

/** The precompiled validator of course.yaml's schema, when `schemaText` is the schema it was made from. */
export function precompiledCourseValidator(schemaText: string): Validator | undefined {
  return lookup(course, 'course', schemaText);
}

/** The precompiled validator of a shipped kind, when `schemaText` is the schema it was made from. */
export function precompiledKindValidator(kind: string, schemaText: string): Validator | undefined {
  return lookup(kinds, kind, schemaText);
}

function lookup(module: PrecompiledModule, name: string, schemaText: string): Validator | undefined {
  return Object.hasOwn(module, `source:${name}`) && module[`source:${name}`] === schemaText
    ? module[`validate:${name}`]
    : undefined;
}
