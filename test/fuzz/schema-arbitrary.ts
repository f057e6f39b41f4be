import fc from 'fast-check';

/** The subset of JSON Schema that openapi.yaml uses. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  minProperties?: number;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
}

/** Follows `$ref`s within the document. */
export type Resolve = (schema: JsonSchema) => JsonSchema;

export function resolverFor(document: unknown): Resolve {
  const resolve = (schema: JsonSchema): JsonSchema => {
    if (!schema.$ref) return schema;
    let target: unknown = document;
    for (const part of schema.$ref.replace(/^#\//, '').split('/')) target = (target as Record<string, unknown>)[part];
    return resolve(target as JsonSchema);
  };
  return resolve;
}

/** Strings stay short: the point is their shape, and long ones only slow the run down. */
const MAX_GENERATED_LENGTH = 40;

const iso = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());
const nameText = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 30 })
  .filter((s) => /\S/u.test(s) && !/[\p{Cc}\u2028\u2029]/u.test(s));

/** Values the schema accepts (a few it may refuse where a rule lives in code, not in the schema). */
export function validValue(schema: JsonSchema, resolve: Resolve): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.oneOf || s.anyOf) return fc.oneof(...(s.oneOf ?? s.anyOf ?? []).map((option) => validValue(option, resolve)));
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : ['object'];
  return fc.oneof(...types.map((type) => valueOfType(type, s, resolve)));
}

function valueOfType(type: string, s: JsonSchema, resolve: Resolve): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000);
      const max =
        s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : Math.max(min, 0) + 1_000_000);
      return type === 'integer'
        ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
        : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'string':
      return stringValue(s);
    case 'array': {
      const maxLength = Math.min(s.maxItems ?? 4, Math.max(s.minItems ?? 0, 4));
      return fc.array(validValue(s.items ?? {}, resolve), { minLength: s.minItems ?? 0, maxLength });
    }
    default:
      return objectValue(s, resolve);
  }
}

function stringValue(s: JsonSchema): fc.Arbitrary<string> {
  if (s.format === 'date-time') return iso;
  if (s.format === 'name') return nameText.filter((t) => t.length <= (s.maxLength ?? Infinity));
  if (s.format === 'uri' || s.pattern === '^https?://') return fc.webUrl({ validSchemes: ['https'] });
  const minLength = s.minLength ?? 0;
  const maxLength = Math.min(s.maxLength ?? MAX_GENERATED_LENGTH, Math.max(minLength, MAX_GENERATED_LENGTH));
  if (s.pattern)
    return fc
      .stringMatching(new RegExp(s.pattern, 'u'))
      .filter((t) => t.length >= minLength && t.length <= (s.maxLength ?? Infinity));
  return fc.string({ unit: 'grapheme', minLength, maxLength });
}

function objectValue(s: JsonSchema, resolve: Resolve): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.fromEntries(
    Object.entries(s.properties ?? {}).map(([name, property]) => [name, validValue(property, resolve)]),
  );
  const requiredKeys = (s.required ?? []).filter((name) => name in properties);
  return fc.record(properties, { requiredKeys }).filter((value) => Object.keys(value).length >= (s.minProperties ?? 0));
}

/** One way of breaking a valid body so that its schema refuses it. */
export function invalidBody(schema: JsonSchema, resolve: Resolve): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const valid = validValue(s, resolve);
  const wrongShapes = fc.oneof(
    fc.integer(),
    fc.constant('text'),
    fc.constant(null),
    fc.array(fc.integer(), { maxLength: 2 }),
  );
  const breakers: Array<fc.Arbitrary<unknown>> = [wrongShapes];
  const properties = Object.entries(s.properties ?? {});
  if (s.additionalProperties === false) {
    breakers.push(valid.map((value) => ({ ...(value as object), unexpectedProperty: true })));
  }
  for (const name of s.required ?? []) {
    breakers.push(
      valid.map((value) => {
        const { [name]: _dropped, ...rest } = value as Record<string, unknown>;
        return rest;
      }),
    );
  }
  for (const [name, property] of properties) {
    const wrong = wrongValueFor(resolve(property));
    if (wrong) breakers.push(fc.tuple(valid, wrong).map(([value, bad]) => ({ ...(value as object), [name]: bad })));
  }
  return fc.oneof(...breakers);
}

/** A value of the wrong type or out of the property's bounds, or undefined when none is sure to be wrong. */
function wrongValueFor(s: JsonSchema): fc.Arbitrary<unknown> | undefined {
  if (s.oneOf || s.anyOf || s.type === undefined) return undefined;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('string')) {
    const options: Array<fc.Arbitrary<unknown>> = [fc.integer(), fc.constant({ nested: 'object' })];
    if (s.maxLength !== undefined && s.maxLength < 10_000) options.push(fc.constant('x'.repeat(s.maxLength + 1)));
    if (s.format === 'date-time')
      options.push(fc.constantFrom('2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', 'yesterday'));
    return fc.oneof(...options);
  }
  if (types.includes('integer') || types.includes('number')) {
    const options: Array<fc.Arbitrary<unknown>> = [fc.constant('12'), fc.constant(true)];
    if (s.minimum !== undefined) options.push(fc.constant(s.minimum - 1));
    if (s.maximum !== undefined) options.push(fc.constant(s.maximum + 1));
    return fc.oneof(...options);
  }
  if (types.includes('boolean')) return fc.constantFrom('true', 1, 0);
  if (types.includes('array')) return fc.constantFrom('not an array', 7);
  if (types.includes('object')) return fc.constantFrom('not an object', 7, [1]);
  return undefined;
}
