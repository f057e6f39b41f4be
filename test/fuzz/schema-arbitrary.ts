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
  const breakers: Array<fc.MaybeWeightedArbitrary<unknown>> = [
    wrongShapes,
    // Sent as they are (a string body is sent as its text): nesting no request may have.
    deeplyNestedJson,
    fc.tuple(valid, deeplyNestedJson).map(([value, nested]) => withProperty(value, 'nested', nested)),
  ];
  if (s.type === 'object' || s.properties) {
    breakers.push(fc.tuple(valid, unstorableText).map(([value, key]) => ({ ...(value as object), [key]: 'value' })));
  }
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
    if (!wrong) continue;
    const broken = fc.tuple(valid, wrong).map(([value, bad]) => ({ ...(value as object), [name]: bad }));
    // A field with a format (a timestamp, a name) has more ways to be wrong than its type.
    breakers.push(resolve(property).format ? { arbitrary: broken, weight: 3 } : broken);
  }
  return fc.oneof(...breakers);
}

/** A value of the wrong type or out of the property's bounds, or undefined when none is sure to be wrong. */
function wrongValueFor(s: JsonSchema): fc.Arbitrary<unknown> | undefined {
  if (s.oneOf || s.anyOf || s.type === undefined) return undefined;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('string')) {
    const options: Array<fc.MaybeWeightedArbitrary<unknown>> = [
      fc.integer(),
      fc.constant({ nested: 'object' }),
      unstorableText,
    ];
    if (s.maxLength !== undefined && s.maxLength < 10_000) options.push(fc.constant('x'.repeat(s.maxLength + 1)));
    // A format is a rule of its own: its wrong forms are most of what such a field is sent.
    if (s.format === 'name') options.push({ arbitrary: controlOrBlank, weight: options.length });
    if (s.format === 'date-time') options.push({ arbitrary: wrongTimestamp, weight: options.length });
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

/** The JSON text of `value` (an object, else `{}`) with one more property, given as JSON text. */
function withProperty(value: unknown, name: string, json: string): string {
  const rest = value !== null && typeof value === 'object' && !Array.isArray(value) ? JSON.stringify(value) : '{}';
  return `{${JSON.stringify(name)}:${json}${rest === '{}' ? '}' : `,${rest.slice(1)}`}`;
}

/**
 * Text no field may hold, anywhere in a request: U+0000, which PostgreSQL's text type refuses,
 * or a lone surrogate (high or low), amid ordinary text.
 */
export const unstorableText: fc.Arbitrary<string> = fc
  .tuple(
    fc.string({ maxLength: 6 }),
    fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff'),
    fc.string({ maxLength: 6 }),
  )
  .map(([before, bad, after]) => `${before}${bad}${after}`);

/** One-line text gone wrong, for `format: name`: a control character (C0, DEL, C1, U+2028) amid text, or blanks. */
const controlOrBlank: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.string({ minLength: 1, maxLength: 6 }),
      fc.constantFrom('\u0007', '\n', '\t', '\u001b', '\u007f', '\u0085', '\u2028'),
    )
    .map(([text, control]) => `${text}${control}${text}`),
  fc.constantFrom('', ' ', '   ', '\t'),
);

/** Arrays or objects nested deeper than any request may (the service's cap is 64), as JSON text. */
export const deeplyNestedJson: fc.Arbitrary<string> = fc
  .record({ depth: fc.integer({ min: 65, max: 20_000 }), arrays: fc.boolean() })
  .map(({ depth, arrays }) =>
    arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  );

const two = (n: number) => String(n).padStart(2, '0');

/**
 * A timestamp RFC 3339 would take by its shape whose instant, in UTC, leaves the years
 * 0000–9999: late on 9999-12-31 with a negative offset that carries it past the year's end,
 * or early on 0000-01-01 with a positive one that takes it back before the first.
 */
const yearOutOfRange: fc.Arbitrary<string> = fc
  .record({
    offset: fc.integer({ min: 1, max: 23 * 60 + 59 }),
    into: fc.integer({ min: 0, max: 23 * 60 + 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    lastYear: fc.boolean(),
  })
  .map(({ offset, into, second, lastYear }) => {
    // Local minutes of the day: within `offset` of the year's end (or beginning), so UTC crosses it.
    const local = lastYear ? 24 * 60 - 1 - (into % offset) : into % offset;
    const time = `${two(Math.floor(local / 60))}:${two(local % 60)}:${two(second)}`;
    const zone = `${two(Math.floor(offset / 60))}:${two(offset % 60)}`;
    return lastYear ? `9999-12-31T${time}-${zone}` : `0000-01-01T${time}+${zone}`;
  });

/** A timestamp the service must refuse: a field out of range, a leap second, or an instant outside 0000–9999. */
export const wrongTimestamp: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: yearOutOfRange, weight: 2 },
  fc.constantFrom(
    '2026-13-01T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-06-30T23:59:60Z',
    '2026-01-01T00:00:00+24:00',
    '+010000-01-01T00:00:00Z',
    '-000001-12-31T23:00:00.000Z',
    'yesterday',
  ),
);

/**
 * Percent-encoding a URL may carry but that does not decode to UTF-8: a byte of 0x80 or more
 * alone (a stray continuation byte, or a lead byte without its continuation), a truncated
 * sequence, an encoded surrogate (the only way to send a lone surrogate in a URL), an
 * overlong form, or a `%` without two hex digits.
 */
export const malformedPercentEncoding: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 0x80, max: 0xff }).map((byte) => `%${byte.toString(16).toUpperCase()}`),
  fc.constantFrom('%E0%A4%A', '%E2%82', '%ED%A0%80', '%ED%BF%BF', '%C0%80', '%', '%G1', '%4'),
);

/** A path segment or query value, percent-encoded as sent, that no parameter may take. */
export const hostileParameter: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }))
    .map(([a, b]) => `${encodeURIComponent(a)}%00${encodeURIComponent(b)}`),
  fc.tuple(fc.string({ maxLength: 6 }), malformedPercentEncoding).map(([a, bad]) => `${encodeURIComponent(a)}${bad}`),
);

/** A query value, percent-encoded as sent, that the parameter's schema or the service must refuse. */
export function wrongQueryValue(schema: JsonSchema, resolve: Resolve): fc.Arbitrary<string> {
  const s = resolve(schema);
  const options: Array<fc.MaybeWeightedArbitrary<string>> = [hostileParameter];
  if (s.type === 'integer') options.push(fc.constant('not-a-number'));
  if (s.format === 'date-time') options.push({ arbitrary: wrongTimestamp.map(encodeURIComponent), weight: 2 });
  if (s.maxLength !== undefined && s.maxLength < 10_000) options.push(fc.constant('x'.repeat(s.maxLength + 1)));
  return fc.oneof(...options);
}
