/**
 * Reading a course: `course.yaml` (validated by its own JSON Schema, with the line of every
 * problem) and the part directories `parts/<id>/`, whose files become the part object that is
 * validated against the part's kind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type CodeOptions, type ErrorObject } from 'ajv';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { Diagnostic } from './diagnostics.js';
import {
  contentExtension,
  FORMAT_EXTENSIONS,
  type Format,
  type Kind,
  type KindRegistry,
  type Validator,
} from './kinds.js';
import { precompiledCourseValidator } from './precompiled.js';
import { parseSimpleYaml } from './simple-yaml.js';
import { suggesting } from './suggest.js';

export const COURSE_FILE = 'course.yaml';
export const COURSE_SCHEMA_FILE = fileURLToPath(new URL('../schema/course.schema.json', import.meta.url));

export interface PartConfig {
  id: string;
  kind: string;
  format: Format;
}

export type Target =
  | { name: string; action: 'assemble-markdown'; field: string }
  | { name: string; action: 'compile'; compile: 'typeset' };

export interface CourseConfig {
  title: string;
  parts: readonly PartConfig[];
  /** In course.yaml's order. */
  targets: readonly Target[];
}

export interface PartContent {
  property: string;
  /** POSIX path relative to the course root. */
  file: string;
  extension: string;
  /** The file's text, without a leading byte-order mark. */
  text: string;
}

export interface Part extends PartConfig {
  /** `parts/<id>`, relative to the course root. */
  dir: string;
  /** The content files present, by property, in the kind's property order. */
  content: ReadonlyMap<string, PartContent>;
}

export interface Course {
  /** Absolute path of the course directory. */
  root: string;
  title: string;
  parts: readonly Part[];
  targets: readonly Target[];
}

/** A path into course.yaml: keys and sequence indexes. */
export type YamlPath = readonly (string | number)[];

/** 1-based line and column in course.yaml. */
export interface Place {
  line: number;
  column: number;
}

export interface CourseFile {
  /** Set when course.yaml parsed and matched its schema. */
  config: CourseConfig | undefined;
  /** course.yaml as data whenever it is YAML, valid or not: what can still be checked in a broken file. */
  data: unknown;
  /** `course-invalid` diagnostics: YAML syntax and schema problems. */
  diagnostics: Diagnostic[];
  /** Where the node at `at` starts (its key with `key: true`), or its nearest ancestor; null without a document. */
  locate(at: YamlPath, options?: { key?: boolean }): Place | null;
}

/**
 * The one ajv configuration of course.yaml's schema; `code` is set only by the generator of the
 * precompiled validators. verbose: errors carry the schema and the data, which the "did you mean"
 * suggestions need. validateSchema: the schema is cph's own, checked against the meta-schema by the
 * tests; checking it here again compiled the whole draft-07 meta-schema (~25 ms, a tenth of a build).
 */
export function courseAjv(code?: CodeOptions): Ajv {
  return new Ajv({ strict: true, allErrors: true, verbose: true, validateSchema: false, ...(code ? { code } : {}) });
}

let courseValidator: Validator | undefined;

function validateCourse(data: unknown): readonly ErrorObject[] {
  if (!courseValidator) {
    const text = fs.readFileSync(COURSE_SCHEMA_FILE, 'utf8');
    courseValidator = precompiledCourseValidator(text) ?? courseAjv().compile(JSON.parse(text));
  }
  return courseValidator(data) ? [] : (courseValidator.errors ?? []);
}

/** Reads and validates `<root>/course.yaml`. */
export function readCourseFile(root: string): CourseFile {
  const file = path.join(root, COURSE_FILE);
  const invalid = (message: string, place: Place | null = null, expected?: string[]): Diagnostic => ({
    class: 'course-invalid',
    file: COURSE_FILE,
    ...placed(place),
    message,
    ...(expected ? { expected } : {}),
  });
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const reason =
      (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : `cannot be read (${(err as Error).message})`;
    const message = `${COURSE_FILE} ${reason}: a course directory holds course.yaml and parts/ (cph init makes one)`;
    return { config: undefined, data: undefined, diagnostics: [invalid(message)], locate: () => null };
  }

  // `yaml`'s document, made only when needed: for a text the simple reader leaves to it, or to place a diagnostic.
  let parsed: { doc: Document; lineCounter: LineCounter } | undefined;
  const full = () => {
    if (!parsed) {
      const lineCounter = new LineCounter();
      parsed = { doc: parseDocument(text, { lineCounter, prettyErrors: false }), lineCounter };
    }
    return parsed;
  };
  const placeAt = (offset: number): Place => {
    const { line, col } = full().lineCounter.linePos(offset);
    return { line, column: col };
  };
  const locate = (at: YamlPath, options: { key?: boolean } = {}) =>
    nodePlace(full().doc, at, options.key ?? false, placeAt);

  // A valid course.yaml in plain YAML is read without `yaml`. Its keys are words, never integer-like,
  // so the object keeps the targets in the file's order.
  const simple = parseSimpleYaml(text);
  if (simple !== undefined && validateCourse(simple).length === 0) {
    const targetNames = Object.keys((simple as { targets?: object }).targets ?? {});
    return { config: courseConfig(simple, targetNames), data: simple, diagnostics: [], locate };
  }

  const { doc } = full();
  if (doc.errors.length > 0) {
    return {
      config: undefined,
      data: undefined,
      diagnostics: doc.errors.map((e) => invalid(`YAML: ${firstLine(e.message)}`, placeAt(e.pos[0]))),
      locate,
    };
  }
  const data: unknown = doc.toJS();
  const errors = validateCourse(data);
  if (errors.length > 0) {
    const diagnostics = schemaDiagnostics(errors, locate).map((d) => invalid(d.message, d.place, d.expected));
    return { config: undefined, data, diagnostics, locate };
  }
  // Target order from the YAML map itself: a JS object would move integer-like names first.
  const targetsNode = isMap(doc.contents) ? doc.contents.get('targets', true) : undefined;
  const targetNames = isMap(targetsNode)
    ? targetsNode.items.map((pair) => String(isScalar(pair.key) ? pair.key.value : pair.key))
    : [];
  return { config: courseConfig(data, targetNames), data, diagnostics: [], locate };
}

/** The configuration of a course.yaml whose data matched the schema, its targets in `targetNames` order. */
function courseConfig(data: unknown, targetNames: readonly string[]): CourseConfig {
  const raw = data as { title: string; parts: PartConfig[]; targets?: Record<string, TargetBody> };
  const targets = targetNames.map((name): Target => {
    const body = raw.targets![name]!;
    return 'compile' in body
      ? { name, action: 'compile', compile: body.compile }
      : { name, action: 'assemble-markdown', field: body['assemble-markdown'].field };
  });
  return { title: raw.title, parts: raw.parts.map(({ id, kind, format }) => ({ id, kind, format })), targets };
}

type TargetBody = { 'assemble-markdown': { field: string } } | { compile: 'typeset' };

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}

/** `line` and `column` of a diagnostic at `place` (column only when known). */
export function placed(place: Place | null): { line: number | null; column?: number } {
  return place ? { line: place.line, column: place.column } : { line: null };
}

function nodePlace(doc: Document, at: YamlPath, key: boolean, placeAt: (offset: number) => Place): Place | null {
  let node: unknown = doc.contents;
  let line: Place | null = node && (node as Node).range ? placeAt((node as Node).range![0]) : null;
  for (const [i, segment] of at.entries()) {
    const last = i === at.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === String(segment));
      if (!pair) break;
      const keyNode = pair.key as Node | undefined;
      if (last && key && keyNode?.range) return placeAt(keyNode.range[0]);
      node = pair.value;
      // A key with an empty value: the key's line is the best place.
      if (keyNode?.range) line = placeAt(keyNode.range[0]);
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
    } else {
      break;
    }
    const range = (node as Node | null | undefined)?.range;
    if (range) line = placeAt(range[0]);
  }
  return line;
}

interface SchemaProblem {
  message: string;
  place: Place | null;
  expected?: string[];
}

/** The two shapes of a target, by the key that tells them apart (the index of its `oneOf` branch). */
const TARGET_KEYS = ['assemble-markdown', 'compile'];
const TARGET_SHAPES = 'a target is either {assemble-markdown: {field: <property>}} or {compile: typeset}';

/** Readable messages for the schema errors, one per problem, with their course.yaml lines. */
function schemaDiagnostics(errors: readonly ErrorObject[], lineOf: CourseFile['locate']): SchemaProblem[] {
  const pathOf = (e: ErrorObject): (string | number)[] =>
    e.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
      .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  // A target that matches neither shape: its key says which shape was meant, and only that
  // shape's errors are worth reading. Without either key, one message says what a target is.
  const meant = new Map<string, number | undefined>();
  for (const e of errors) {
    if (e.keyword !== 'oneOf') continue;
    const data: unknown = e.data;
    const keys = data !== null && typeof data === 'object' ? Object.keys(data) : [];
    const branch = TARGET_KEYS.findIndex((k) => keys.includes(k));
    meant.set(e.instancePath, branch === -1 ? undefined : branch);
  }
  const targetOf = (e: ErrorObject) =>
    [...meant.keys()].find((p) => e.instancePath === p || e.instancePath.startsWith(`${p}/`));
  const misspeltKeys = new Set(
    errors.filter((e) => e.keyword === 'additionalProperties').map((e) => `${e.instancePath}/${closestKey(e) ?? ''}`),
  );

  const out: SchemaProblem[] = [];
  const seen = new Set<string>();
  const push = (message: string, place: Place | null, expected?: string[]) => {
    if (seen.has(message)) return;
    seen.add(message);
    out.push({ message, place, ...(expected ? { expected } : {}) });
  };
  for (const e of errors) {
    const at = pathOf(e);
    const label = labelOf(at);
    const target = targetOf(e);
    if (target !== undefined) {
      const branch = meant.get(target);
      if (e.keyword === 'oneOf') {
        if (branch === undefined) push(...unknownTargetShape(label, e.data, at, lineOf));
        continue;
      }
      if (branch === undefined || !e.schemaPath.includes(`/oneOf/${branch}/`)) continue;
    }
    if (e.keyword === 'propertyNames') continue;
    if (e.propertyName !== undefined) {
      const message =
        `targets: "${e.propertyName}" is not a valid target name: ` +
        'use letters, digits, ".", "_" and "-", starting with a letter or digit (it names the output file)';
      push(message, lineOf([...at, e.propertyName], { key: true }));
      continue;
    }
    switch (e.keyword) {
      case 'required': {
        const name = String(e.params.missingProperty);
        // A misspelt key is reported as such; "missing" would only repeat it.
        if (misspeltKeys.has(`${e.instancePath}/${name}`)) break;
        push(`${label}: missing "${name}"${requiredHint(name)}`, lineOf(at));
        break;
      }
      case 'additionalProperties': {
        const name = String(e.params.additionalProperty);
        const known = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
        const { message, expected } = suggesting(`${label}: unknown key "${name}"`, name, known);
        push(
          expected ? message : `${message} (known keys: ${known.join(', ')})`,
          lineOf([...at, name], { key: true }),
          expected,
        );
        break;
      }
      case 'enum': {
        const allowed = (e.params.allowedValues as unknown[]).map(String);
        const { message, expected } = suggesting(
          `${label}: must be one of ${allowed.join(', ')}`,
          String(e.data),
          allowed,
        );
        push(message, lineOf(at), expected);
        break;
      }
      case 'const':
        push(`${label}: must be ${String(e.params.allowedValue)}`, lineOf(at), [String(e.params.allowedValue)]);
        break;
      case 'type':
        push(`${label}: must be ${typeName(String(e.params.type))}`, lineOf(at));
        break;
      case 'minItems':
        push(`${label}: must list at least one part (- {id: intro, kind: lesson, format: markdown})`, lineOf(at));
        break;
      case 'minLength':
        push(`${label}: must not be empty`, lineOf(at));
        break;
      case 'pattern':
        push(patternMessage(label, at), lineOf(at));
        break;
      default:
        push(`${label}: ${e.message ?? 'is invalid'}`, lineOf(at));
    }
  }
  return out;
}

/** The known key closest to an unknown one, for an `additionalProperties` error. */
function closestKey(e: ErrorObject): string | undefined {
  const known = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
  return suggesting('', String(e.params.additionalProperty), known).expected?.[0];
}

/** A target with neither `assemble-markdown` nor `compile`: maybe one of them misspelt. */
function unknownTargetShape(
  label: string,
  data: unknown,
  at: YamlPath,
  lineOf: CourseFile['locate'],
): [string, Place | null, string[]?] {
  const keys = data !== null && typeof data === 'object' ? Object.keys(data) : [];
  for (const key of keys) {
    const { message, expected } = suggesting(`${label}: unknown key "${key}"`, key, TARGET_KEYS);
    if (expected) return [`${message} (${TARGET_SHAPES})`, lineOf([...at, key], { key: true }), expected];
  }
  return [`${label}: ${TARGET_SHAPES}`, lineOf(at)];
}

/** What to write for a missing key. */
function requiredHint(name: string): string {
  const examples: Record<string, string> = {
    title: 'title: <the course title>',
    parts: 'parts: [{id: intro, kind: lesson, format: markdown}]',
    id: 'id: <a name for parts/<id>/>',
    kind: 'kind: <a kind, such as lesson>',
    format: 'format: markdown (or typeset)',
    field: 'field: <a content property, such as slides>',
  };
  return examples[name] ? `: add ${examples[name]}` : '';
}

function labelOf(at: YamlPath): string {
  if (at.length === 0) return COURSE_FILE;
  return at.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function typeName(type: string): string {
  if (type === 'object') return 'a mapping';
  if (type === 'array') return 'a list';
  return `a ${type}`;
}

function patternMessage(label: string, at: YamlPath): string {
  if (at[0] === 'title') return 'title: must be one non-empty line';
  if (at[at.length - 1] === 'id') {
    return (
      `${label}: not a valid part id: ` +
      'use letters, digits, ".", "_" and "-", starting with a letter or digit (it names the directory parts/<id>/)'
    );
  }
  return `${label}: has an invalid form`;
}

/** Every extension a content file can have with these kinds: the formats' and the markers'. */
export function contentExtensionsOf(kinds: KindRegistry): ReadonlySet<string> {
  const exts = new Set<string>(Object.values(FORMAT_EXTENSIONS));
  for (const kind of kinds.values()) for (const p of kind.properties) if (p.marker !== true) exts.add(p.marker);
  return exts;
}

export interface PartDirectory {
  found: 'directory' | 'missing' | 'not-a-directory';
  /** Property (or unknown stem) → text: the object validated against the kind. */
  object: Record<string, string>;
  /** The kind's content files present. */
  content: Map<string, PartContent>;
  /** Content-looking files whose stem is not a property of the kind, by stem. */
  strangers: Map<string, string[]>;
  /** Files named after a property but with another extension than the part's format gives it. */
  misplaced: { file: string; property: string; expected: string }[];
}

/** `parts/<id>`, relative to the course root. */
export function partDir(id: string): string {
  return `parts/${id}`;
}

/** Whether `parts/<id>/` is there. */
export function partPresence(root: string, id: string): PartDirectory['found'] {
  try {
    return fs.statSync(path.join(root, partDir(id))).isDirectory() ? 'directory' : 'not-a-directory';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR')
      return 'missing';
    throw err;
  }
}

/** The expected content file of a property in a part (relative to the course root). */
export function contentFile(part: PartConfig, property: string, kind: Kind): string {
  const p = kind.properties.find((x) => x.name === property);
  if (!p) throw new Error(`kind ${kind.name} has no property ${property}`);
  return `${partDir(part.id)}/${property}.${contentExtension(p.marker, part.format)}`;
}

/**
 * Reads `parts/<id>/`. Top-level files with a content extension (`contentExtensions`) are
 * content; everything else (subdirectories, images, dotfiles) is left to the author.
 */
export function readPartDirectory(
  root: string,
  part: PartConfig,
  kind: Kind,
  contentExtensions: ReadonlySet<string>,
): PartDirectory {
  const dir = partDir(part.id);
  const result: PartDirectory = {
    found: 'directory',
    object: {},
    content: new Map(),
    strangers: new Map(),
    misplaced: [],
  };
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ...result, found: 'missing' };
    if (code === 'ENOTDIR') return { ...result, found: 'not-a-directory' };
    throw err;
  }
  const expected = new Map(kind.properties.map((p) => [p.name, contentExtension(p.marker, part.format)]));
  const found = new Map<string, string>();
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith('.')) continue;
    const isFile = entry.isFile() || (entry.isSymbolicLink() && statIsFile(path.join(root, dir, entry.name)));
    if (!isFile) continue;
    const dot = entry.name.lastIndexOf('.');
    if (dot <= 0) continue;
    const stem = entry.name.slice(0, dot);
    const ext = entry.name.slice(dot + 1);
    if (!contentExtensions.has(ext)) continue;
    const file = `${dir}/${entry.name}`;
    const want = expected.get(stem);
    if (want === ext) found.set(stem, file);
    else if (want !== undefined) result.misplaced.push({ file, property: stem, expected: `${dir}/${stem}.${want}` });
    else {
      const files = result.strangers.get(stem) ?? [];
      files.push(file);
      result.strangers.set(stem, files);
      result.object[stem] = '';
    }
  }
  for (const p of kind.properties) {
    const file = found.get(p.name);
    if (file === undefined) continue;
    const text = stripBom(fs.readFileSync(path.join(root, file), 'utf8'));
    result.object[p.name] = text;
    result.content.set(p.name, { property: p.name, file, extension: expected.get(p.name)!, text });
  }
  return result;
}

function statIsFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
