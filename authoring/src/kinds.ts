/**
 * Content kinds: one JSON Schema per kind in `authoring/kinds/<kind>.schema.json`, validated by
 * an ajv instance in strict mode that knows the `x-cph-content` marker. Each kind is compiled once
 * per kinds directory and reused for every part and every course checked in the process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type AnySchemaObject, type CodeOptions, type ValidateFunction } from 'ajv';
import { precompiledKindValidator } from './precompiled.js';

/** The keyword that turns a kind property into a content file. */
export const CONTENT_KEYWORD = 'x-cph-content';

/** `true`: the extension of the part's format; a string: that extension (without the dot). */
export type ContentMarker = true | string;

export type Format = 'typeset' | 'markdown';

/** The file extension `x-cph-content: true` stands for, per part format. */
export const FORMAT_EXTENSIONS: Readonly<Record<Format, string>> = Object.freeze({ typeset: 'typ', markdown: 'md' });

/** The directory of the kinds shipped with cph. */
export const KINDS_DIR = fileURLToPath(new URL('../kinds/', import.meta.url));

const KIND_FILE_SUFFIX = '.schema.json';
const KIND_NAME = /^[a-z][a-z0-9-]*$/;

/** Metaschema of the marker: ajv refuses to compile a schema whose marker breaks it. */
const MARKER_METASCHEMA = {
  anyOf: [{ const: true }, { type: 'string', pattern: '^[a-z0-9]+$' }],
} as const;

/** A compiled schema: true when the data matches it; what did not match is then in `errors`. */
export type Validator = ((data: unknown) => boolean) & Pick<ValidateFunction, 'errors'>;

export interface ContentProperty {
  name: string;
  marker: ContentMarker;
  required: boolean;
}

export interface Kind {
  name: string;
  /** Absolute path of the schema file, when loaded from one. */
  file: string | undefined;
  schema: AnySchemaObject;
  /** In the schema's order; the property named after the kind (the main content) is among them. */
  properties: readonly ContentProperty[];
  /** The compiled schema; validates a part object (property name → file text). */
  validate: Validator;
}

export type KindRegistry = ReadonlyMap<string, Kind>;

/** A kind schema that cannot be used: bad JSON, a bad marker, or a shape cph cannot load. */
export class KindSchemaError extends Error {
  constructor(
    readonly file: string | undefined,
    message: string,
  ) {
    super(file ? `${file}: ${message}` : message);
    this.name = 'KindSchemaError';
  }
}

/** A strict ajv that knows `x-cph-content` (an annotation: it constrains schemas, not data). */
export function createKindAjv(): Ajv {
  return kindAjv(true);
}

/** The one ajv configuration of kinds; `code` is set only by the generator of the precompiled validators. */
export function kindAjv(validateSchema: boolean, code?: CodeOptions): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true, validateSchema, ...(code ? { code } : {}) });
  ajv.addKeyword({ keyword: CONTENT_KEYWORD, metaSchema: MARKER_METASCHEMA });
  return ajv;
}

/** The file extension of a content property in a part of the given format. */
export function contentExtension(marker: ContentMarker, format: Format): string {
  return marker === true ? FORMAT_EXTENSIONS[format] : marker;
}

let sharedAjv: Ajv | undefined;
/** The ajv every kind shares unless a caller brings its own, made on first use. */
function sharedKindAjv(): Ajv {
  sharedAjv ??= createKindAjv();
  return sharedAjv;
}

let shippedAjv: Ajv | undefined;
/**
 * The ajv of the kinds shipped with cph: as strict, but it does not check them against the
 * draft-07 meta-schema, which it would compile first (~40 ms, a fifth of `cph check`). They are
 * cph's own files, and the tests make that check instead. Any other kinds directory gets the full one.
 */
function shippedKindAjv(): Ajv {
  shippedAjv ??= kindAjv(false);
  return shippedAjv;
}

/**
 * Checks and compiles one kind schema. Besides what ajv enforces (strict mode, the marker's
 * metaschema), a kind must be an object schema with `additionalProperties: false` whose every
 * property is a string content file, one of them named after the kind. `validate`: the schema's
 * validator compiled already (cph's precompiled ones), used instead of compiling it again.
 */
export function compileKind(
  name: string,
  schema: unknown,
  options: { ajv?: Ajv; file?: string; validate?: Validator } = {},
): Kind {
  const { file } = options;
  const fail = (message: string): never => {
    throw new KindSchemaError(file, message);
  };
  if (!KIND_NAME.test(name)) fail(`kind name "${name}" must match ${KIND_NAME}`);
  if (!isObject(schema)) return fail('a kind schema must be a JSON object');

  let validate: Validator;
  try {
    validate = options.validate ?? (options.ajv ?? sharedKindAjv()).compile(schema);
  } catch (err) {
    return fail((err as Error).message);
  }

  if (schema.type !== 'object') fail('"type" must be "object"');
  if (schema.additionalProperties !== false) fail('"additionalProperties" must be false');
  const props = schema.properties;
  if (!isObject(props)) return fail('"properties" must be an object');
  const required = schema.required ?? [];
  if (!Array.isArray(required)) return fail('"required" must be an array');
  for (const r of required) {
    if (typeof r !== 'string' || !Object.hasOwn(props, r))
      fail(`required property "${String(r)}" is not among "properties"`);
  }
  const properties: ContentProperty[] = [];
  for (const [prop, sub] of Object.entries(props)) {
    if (!isObject(sub)) return fail(`property "${prop}" must be a schema object`);
    const marker = sub[CONTENT_KEYWORD];
    if (marker === undefined)
      fail(`property "${prop}" has no "${CONTENT_KEYWORD}" marker: every kind property is a content file`);
    if (sub.type !== 'string') fail(`property "${prop}" must have "type": "string"`);
    properties.push({ name: prop, marker: marker as ContentMarker, required: required.includes(prop) });
  }
  if (!properties.some((p) => p.name === name)) fail(`kind "${name}" has no main property named "${name}"`);
  return { name, file, schema, properties, validate };
}

const registries = new Map<string, KindRegistry>();

/** The kind schema files of a directory, by kind name, in name order. */
export function kindFiles(dir: string): { name: string; file: string }[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(KIND_FILE_SUFFIX))
    .sort()
    .map((fileName) => ({ name: fileName.slice(0, -KIND_FILE_SUFFIX.length), file: path.join(dir, fileName) }));
}

/** Every `<kind>.schema.json` of a directory, compiled once per directory for the process's life. */
export function loadKinds(dir: string = KINDS_DIR): KindRegistry {
  const key = path.resolve(dir);
  const cached = registries.get(key);
  if (cached) return cached;
  const kinds = new Map<string, Kind>();
  const shipped = key === path.resolve(KINDS_DIR);
  for (const { name, file } of kindFiles(key)) {
    let text: string;
    let schema: unknown;
    try {
      text = fs.readFileSync(file, 'utf8');
      schema = JSON.parse(text);
    } catch (err) {
      throw new KindSchemaError(file, `not valid JSON: ${(err as Error).message}`);
    }
    // cph's own kinds come precompiled unless edited since; the ajv is made only for one that is not.
    const validate = shipped ? precompiledKindValidator(name, text) : undefined;
    const compiler = validate ? { validate } : shipped ? { ajv: shippedKindAjv() } : {};
    kinds.set(name, compileKind(name, schema, { file, ...compiler }));
  }
  registries.set(key, kinds);
  return kinds;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
