/**
 * `cph check`: reads a course and reports what is wrong with it in exactly six classes of
 * diagnostics. The build runs the same check first and refuses to build on any diagnostic.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  contentExtensionsOf,
  COURSE_FILE,
  placed,
  contentFile,
  partDir,
  partPresence,
  readCourseFile,
  readPartDirectory,
  type Course,
  type CourseConfig,
  type CourseFile,
  type Part,
  type PartConfig,
  type Place,
} from './course.js';
import type { Diagnostic } from './diagnostics.js';
import { contentExtension, loadKinds, type Kind, type KindRegistry } from './kinds.js';
import { ownBlocks, parsePart } from './markdown.js';
import { checkOutline } from './outline.js';
import { suggesting } from './suggest.js';

/** The property whose markdown must be a slide outline, whatever the kind. */
export const OUTLINE_PROPERTY = 'slides';

export interface CheckOptions {
  /** Defaults to the kinds shipped with cph. */
  kinds?: KindRegistry;
}

export interface CheckResult {
  /** Set whenever course.yaml itself is valid, even when parts have problems. */
  course: Course | undefined;
  /** In course order: course.yaml first, then part by part. */
  diagnostics: Diagnostic[];
}

/** Checks the course in `dir`. Throws only on unreadable files or a broken kinds directory. */
export function checkCourse(dir: string, options: CheckOptions = {}): CheckResult {
  return checkCourseReading(dir, options);
}

/** Called with each part as soon as its directory has been read and checked, in course order. */
export type OnPartRead = (part: Part, config: CourseConfig) => void;

/** checkCourse, telling `onPartRead` of each part as it goes: a build starts on a part's files meanwhile. */
export function checkCourseReading(dir: string, options: CheckOptions = {}, onPartRead?: OnPartRead): CheckResult {
  const root = path.resolve(dir);
  const kinds = options.kinds ?? loadKinds();
  const courseFile = readCourseFile(root);
  const { config } = courseFile;
  // The parts cannot be read from a broken course.yaml, but an unknown kind is still worth knowing.
  if (!config)
    return {
      course: undefined,
      diagnostics: inReadingOrder([...courseFile.diagnostics, ...unknownKindsIn(courseFile, kinds)]),
    };

  const diagnostics: Diagnostic[] = [];
  const atCourse = (cls: Diagnostic['class'], message: string, place: Place | null, expected?: string[]): void => {
    diagnostics.push({ class: cls, file: COURSE_FILE, ...placed(place), message, ...(expected ? { expected } : {}) });
  };

  const firstIndex = new Map<string, number>();
  config.parts.forEach((part, i) => {
    const first = firstIndex.get(part.id);
    if (first === undefined) firstIndex.set(part.id, i);
    else
      atCourse(
        'course-invalid',
        `parts[${i}].id: "${part.id}" is already the id of parts[${first}]`,
        courseFile.locate(['parts', i, 'id']),
      );
  });
  diagnostics.push(...checkTargets(config, kinds, courseFile));

  const parts: Part[] = [];
  const contentExtensions = contentExtensionsOf(kinds);
  config.parts.forEach((entry, i) => {
    const kind = kinds.get(entry.kind);
    const part: Part = { ...entry, dir: partDir(entry.id), content: new Map() };
    parts.push(part);
    if (firstIndex.get(entry.id) !== i) return;
    if (!kind) {
      diagnostics.push(unknownKind(i, entry.kind, kinds, courseFile));
      // Whether the directory exists is still worth knowing.
      const presence = partPresence(root, entry.id);
      if (presence !== 'directory') partMissing(i, entry, presence === 'not-a-directory');
      return;
    }
    const read = readPartDirectory(root, entry, kind, contentExtensions);
    if (read.found !== 'directory') {
      partMissing(i, entry, read.found === 'not-a-directory');
      return;
    }
    part.content = read.content;
    diagnostics.push(...contentDiagnostics(entry, kind, read));
    const slides = read.content.get(OUTLINE_PROPERTY);
    if (slides && slides.extension === 'md') {
      for (const problem of checkOutline(ownBlocks(parsePart(slides)))) {
        diagnostics.push({
          class: 'outline-invalid',
          file: slides.file,
          line: problem.line,
          ...(problem.column === null ? {} : { column: problem.column }),
          message: problem.message,
        });
      }
    }
    onPartRead?.(part, config);
  });

  function partMissing(i: number, entry: PartConfig, notADirectory = false): void {
    const what = notADirectory ? 'is not a directory' : "not found: create it with the part's content files";
    // A directory nobody names that is close to the id is most likely the part, misspelt on one side.
    const unclaimed = partDirectories(root).filter((d) => !firstIndex.has(d));
    const { message, expected } = suggesting(`part "${entry.id}": ${partDir(entry.id)}/ ${what}`, entry.id, unclaimed);
    atCourse('part-missing', message, courseFile.locate(['parts', i, 'id']), expected);
  }

  return {
    course: { root, title: config.title, parts, targets: config.targets },
    diagnostics: inReadingOrder(diagnostics),
  };
}

function unknownKind(i: number, kind: string, kinds: KindRegistry, courseFile: CourseFile): Diagnostic {
  const known = [...kinds.keys()];
  const { message, expected } = suggesting(
    `parts[${i}].kind: unknown kind "${kind}" (known: ${known.join(', ')})`,
    kind,
    known,
  );
  return {
    class: 'unknown-kind',
    file: COURSE_FILE,
    ...placed(courseFile.locate(['parts', i, 'kind'])),
    message,
    ...(expected ? { expected } : {}),
  };
}

/** The unknown kinds of a course.yaml that failed its schema: every part entry with a kind that is a name. */
function unknownKindsIn(courseFile: CourseFile, kinds: KindRegistry): Diagnostic[] {
  const parts = (courseFile.data as { parts?: unknown } | null | undefined)?.parts;
  if (!Array.isArray(parts)) return [];
  return parts.flatMap((part: unknown, i) => {
    const kind = (part as { kind?: unknown } | null)?.kind;
    return typeof kind === 'string' && kind !== '' && !kinds.has(kind) ? [unknownKind(i, kind, kinds, courseFile)] : [];
  });
}

/** The subdirectories of `parts/`, for suggestions. */
function partDirectories(root: string): string[] {
  try {
    return fs
      .readdirSync(path.join(root, 'parts'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/** course.yaml first, then files in the order the check met them; by line within a file. */
function inReadingOrder(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const order = new Map<string, number>([[COURSE_FILE, 0]]);
  for (const d of diagnostics) if (!order.has(d.file)) order.set(d.file, order.size);
  return [...diagnostics].sort(
    (a, b) =>
      order.get(a.file)! - order.get(b.file)! || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0),
  );
}

/** A course that passed the check; `diagnostics` lists what failed it. */
export class CourseCheckError extends Error {
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super(
      `the course has ${diagnostics.length} problem(s): ` +
        diagnostics.map((d) => `${d.file}${d.line === null ? '' : `:${d.line}`}: ${d.message}`).join('; '),
    );
    this.name = 'CourseCheckError';
  }
}

/** The checked course; throws CourseCheckError when the check reports anything. */
export function loadCourse(dir: string, options: CheckOptions = {}): Course {
  const { course, diagnostics } = checkCourse(dir, options);
  if (!course || diagnostics.length > 0) throw new CourseCheckError(diagnostics);
  return course;
}

function contentDiagnostics(part: PartConfig, kind: Kind, read: ReturnType<typeof readPartDirectory>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const expectedExtension = new Map(kind.properties.map((p) => [p.name, contentExtension(p.marker, part.format)]));
  const expectedFiles = [...expectedExtension].map(([name, ext]) => `${name}.${ext}`).join(', ');
  for (const m of read.misplaced) {
    out.push({
      class: 'content-unexpected',
      file: m.file,
      line: null,
      message:
        `part "${part.id}" has format ${part.format}, so its ${m.property} content is ` +
        `${path.posix.basename(m.expected)}, not ${path.posix.basename(m.file)}: ` +
        "rename it (or change the part's format)",
      expected: [path.posix.basename(m.expected)],
    });
  }
  if (kind.validate(read.object)) return out;
  for (const e of kind.validate.errors ?? []) {
    if (e.keyword === 'required') {
      const property = String(e.params.missingProperty);
      out.push({
        class: 'content-missing',
        file: contentFile(part, property, kind),
        line: null,
        message:
          `part "${part.id}" (kind ${kind.name}, format ${part.format}) requires ${property} content in ` +
          `${path.posix.basename(contentFile(part, property, kind))}: create it (an empty file counts)`,
      });
    } else if (e.keyword === 'additionalProperties') {
      const stem = String(e.params.additionalProperty);
      // A misspelt property (`slide.md`) is renamed; anything else moves out of the way.
      const properties = [...expectedExtension.keys()];
      const fix = suggesting('', stem, properties).expected?.[0];
      const fixed = fix === undefined ? undefined : `${fix}.${expectedExtension.get(fix)}`;
      const advice = fixed
        ? `; did you mean ${fixed}? Rename it`
        : ': rename it to one of them, or move it into a subdirectory';
      for (const file of read.strangers.get(stem) ?? []) {
        const message = `"${stem}" is not content of kind ${kind.name} (its content files: ${expectedFiles})${advice}`;
        out.push({ class: 'content-unexpected', file, line: null, message, ...(fixed ? { expected: [fixed] } : {}) });
      }
    } else {
      // A constraint a kind adds on the text itself (length, pattern): the content is there, not as the kind wants it.
      const property = e.instancePath.slice(1).split('/')[0] ?? '';
      const file = read.content.get(property)?.file ?? `${partDir(part.id)}`;
      out.push({
        class: 'content-unexpected',
        file,
        line: null,
        message: `${property || 'content'} ${e.message ?? 'is invalid'} (kind ${kind.name})`,
      });
    }
  }
  return out;
}

function checkTargets(config: CourseConfig, kinds: KindRegistry, courseFile: CourseFile): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const target of config.targets) {
    if (target.action === 'assemble-markdown') {
      const markdownFields = new Set<string>();
      for (const part of config.parts) {
        for (const p of kinds.get(part.kind)?.properties ?? [])
          if (contentExtension(p.marker, part.format) === 'md') markdownFields.add(p.name);
      }
      if (!markdownFields.has(target.field)) {
        const fields = [...markdownFields].sort();
        const text =
          `targets.${target.name}: field "${target.field}" is not markdown content of any part ` +
          `(markdown fields of this course: ${fields.join(', ') || 'none'})`;
        out.push({
          class: 'course-invalid',
          file: COURSE_FILE,
          ...placed(courseFile.locate(['targets', target.name, 'assemble-markdown', 'field'])),
          ...suggesting(text, target.field, fields),
        });
      }
    } else if (!config.parts.some((p) => p.format === 'typeset')) {
      out.push({
        class: 'course-invalid',
        file: COURSE_FILE,
        ...placed(courseFile.locate(['targets', target.name])),
        message:
          `targets.${target.name}: compiles the typeset parts, but no part has format typeset: ` +
          'give a part format typeset, or remove the target',
      });
    }
  }
  return out;
}
