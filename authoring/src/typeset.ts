/**
 * Typeset targets: the main content of every typeset part, in course order, concatenated into
 * one Typst source and compiled to PDF with the Typst compiler from npm. The source is never
 * written to disk: it is a shadow file at the course root, so the course root is Typst's project
 * root (`/parts/<id>/img.png` reaches a part's file) and nothing outside it can be read. Typst's
 * diagnostics on that source are mapped back to the part file and line they came from.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Course } from './course.js';
import { BuildError, type BuildProblem } from './errors.js';

type TypstModule = typeof import('@myriaddreamin/typst-ts-node-compiler');

/** Loaded on first use: the native compiler is only needed by typeset builds. */
let typst: TypstModule | undefined;
function typstCompiler(): TypstModule {
  typst ??= createRequire(import.meta.url)('@myriaddreamin/typst-ts-node-compiler') as TypstModule;
  return typst;
}

/** Name of the (virtual) main file, at the course root. */
export const TYPESET_MAIN = '.cph-typeset-main.typ';

export interface TypesetSegment {
  /** Course-relative file, or `course.yaml` for the lines cph adds. */
  file: string;
  /** 1-based line of the concatenated source where the segment starts, and its line count. */
  startLine: number;
  lines: number;
}

export interface TypesetSource {
  text: string;
  segments: readonly TypesetSegment[];
}

/** Typst's line breaks: CRLF as one, and the other Unicode line terminators. */
const TYPST_LINE_BREAK = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;

function countLines(text: string): number {
  return (text.match(TYPST_LINE_BREAK)?.length ?? 0) + 1;
}

/**
 * One line setting the PDF's title from course.yaml, then each typeset part's main content
 * (the property named after its kind), each followed by a blank line.
 */
export function concatenateTypeset(course: Course): TypesetSource {
  const header = `#set document(title: ${typstString(course.title)})\n`;
  const segments: TypesetSegment[] = [{ file: 'course.yaml', startLine: 1, lines: 1 }];
  let text = header;
  let line = 2;
  for (const part of course.parts) {
    if (part.format !== 'typeset') continue;
    const main = part.content.get(part.kind);
    if (!main) continue;
    const body = /[\n\v\f\r\u0085\u2028\u2029]$/.test(main.text) || main.text === '' ? main.text : `${main.text}\n`;
    const lines = countLines(body) - 1;
    segments.push({ file: main.file, startLine: line, lines });
    text += `${body}\n`;
    line += lines + 1;
  }
  return { text, segments };
}

function typstString(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/**
 * The part file and line of a line of the concatenated source. A line cph added between parts
 * belongs to the part before it (its last line): what goes wrong there is that part's doing.
 */
export function sourceLocation(source: TypesetSource, line: number): { file: string; line: number } | undefined {
  let before: TypesetSegment | undefined;
  for (const s of source.segments) {
    if (line >= s.startLine && line < s.startLine + s.lines) return { file: s.file, line: line - s.startLine + 1 };
    if (s.startLine <= line) before = s;
  }
  return before ? { file: before.file, line: Math.max(1, before.lines) } : undefined;
}

export interface TypesetResult {
  pdf: Buffer;
  /** Typst warnings, mapped like errors; they do not fail the build. */
  warnings: BuildProblem[];
}

interface TypstDiagnostic {
  message: string;
  path: string;
  severity: number;
  range: { start: { line: number; character: number } } | null;
}

/** Compiles the course's typeset parts; throws BuildError with every Typst error, mapped. */
export function compileTypeset(course: Course): TypesetResult {
  const source = concatenateTypeset(course);
  const main = path.join(course.root, TYPESET_MAIN);
  const compiler = typstCompiler().NodeCompiler.create({ workspace: course.root });
  compiler.mapShadow(main, Buffer.from(source.text, 'utf8'));
  const result = compiler.compile({ mainFilePath: main });
  const warningsError = result.takeWarnings();
  const warnings = warningsError
    ? mapDiagnostics(compiler.fetchDiagnostics(warningsError) as TypstDiagnostic[], course, source, main)
    : [];
  const error = result.takeError();
  const document = result.result;
  if (error || !document) {
    const problems = error
      ? mapDiagnostics(compiler.fetchDiagnostics(error) as TypstDiagnostic[], course, source, main)
      : [];
    const silent: BuildProblem = {
      file: null,
      line: null,
      column: null,
      rule: 'typst-error',
      message: 'typst: compilation failed without a diagnostic',
    };
    const errors = problems.length > 0 ? problems : [silent];
    throw new BuildError(errors);
  }
  return { pdf: compiler.pdf(document), warnings };
}

function mapDiagnostics(
  diagnostics: readonly TypstDiagnostic[],
  course: Course,
  source: TypesetSource,
  main: string,
): BuildProblem[] {
  const problems: BuildProblem[] = [];
  let kind: Pick<BuildProblem, 'rule' | 'severity'> = { rule: 'typst-error' };
  for (const d of diagnostics) {
    // Severity 1 and 2 are errors and warnings; higher ones are trace points (an include, a call) of the one before.
    if (d.severity === 1) kind = { rule: 'typst-error' };
    if (d.severity === 2) kind = { rule: 'typst-warning', severity: 'warning' };
    const message =
      d.severity === 1
        ? `typst error: ${d.message}`
        : d.severity === 2
          ? `typst warning: ${d.message}`
          : `typst: the problem above passes through here (${d.message})`;
    const line = d.range ? d.range.start.line + 1 : null;
    const column = d.range ? d.range.start.character + 1 : null;
    if (path.resolve(d.path) === main) {
      const at = line === null ? undefined : sourceLocation(source, line);
      problems.push({ file: at?.file ?? null, line: at?.line ?? null, column: at ? column : null, message, ...kind });
    } else {
      const relative = path.relative(course.root, d.path);
      const inside = d.path !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
      problems.push({
        file: inside ? relative.split(path.sep).join('/') : d.path || null,
        line,
        column,
        message,
        ...kind,
      });
    }
  }
  return problems;
}
