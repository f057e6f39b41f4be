/**
 * Check diagnostics and build problems, reported the way the unified collective reports lint
 * messages: for people by vfile-reporter (grouped by file, `line:column`, severity, reason, rule,
 * source), for machines as vfile's message fields. Check diagnostics come in exactly six classes;
 * build problems (a missing image, a Typst error) are not among them and carry their own rule.
 */
import path from 'node:path';
import { VFile } from 'vfile';
import { VFileMessage } from 'vfile-message';
import { reporter } from 'vfile-reporter';
import type { BuildProblem } from './errors.js';

export const DIAGNOSTIC_CLASSES = [
  'course-invalid',
  'unknown-kind',
  'part-missing',
  'content-missing',
  'content-unexpected',
  'outline-invalid',
] as const;

export type DiagnosticClass = (typeof DIAGNOSTIC_CLASSES)[number];

export interface Diagnostic {
  class: DiagnosticClass;
  /** POSIX path relative to the course root (`course.yaml`, `parts/intro/slides.md`). */
  file: string;
  /** 1-based; null when the problem has no line (a missing file). */
  line: number | null;
  /** 1-based, when known. */
  column?: number;
  message: string;
  /** What to write instead, when cph knows (a "did you mean" name); vfile's `expected`. */
  expected?: readonly string[];
}

/** One entry of `--json` output: vfile's message fields, plus `class` and `message` as aliases. */
export interface MessageJson {
  file: string | null;
  line: number | null;
  column: number | null;
  place: { line: number; column: number } | null;
  reason: string;
  /** The diagnostic class for check diagnostics; the build problem's rule otherwise. */
  ruleId: string;
  source: 'cph';
  /** true for errors, false for warnings (vfile's severity). */
  fatal: boolean;
  /** Check diagnostics only: the class, the same as `ruleId`. */
  class?: DiagnosticClass;
  /** The same as `reason`. */
  message: string;
  expected?: readonly string[];
}

export interface ReportOptions {
  /** Prefix for the file names shown: the course directory as the user typed it. */
  baseDir?: string;
  color?: boolean;
}

function shownPath(file: string, baseDir: string | undefined): string {
  return baseDir === undefined ? file : path.join(baseDir, file);
}

function message(
  at: { file: string | null; line: number | null; column?: number | null | undefined },
  reason: string,
  ruleId: string,
  fatal: boolean,
  baseDir: string | undefined,
): MessageJson {
  const column = at.line === null ? null : (at.column ?? null);
  return {
    file: at.file === null ? null : shownPath(at.file, baseDir),
    line: at.line,
    column,
    place: at.line === null ? null : { line: at.line, column: column ?? 1 },
    reason,
    ruleId,
    source: 'cph',
    fatal,
    message: reason,
  };
}

/** A check diagnostic as a message: always an error, its class the rule. */
export function diagnosticMessage(d: Diagnostic, options: Pick<ReportOptions, 'baseDir'> = {}): MessageJson {
  const m = message(d, d.message, d.class, true, options.baseDir);
  // `class` sits before `message` so the aliases read together.
  const { message: text, ...rest } = m;
  return { ...rest, class: d.class, message: text, ...(d.expected ? { expected: d.expected } : {}) };
}

/** A build problem as a message: an error, or a warning (Typst's) that does not fail the build. */
export function problemMessage(p: BuildProblem, options: Pick<ReportOptions, 'baseDir'> = {}): MessageJson {
  return message(p, p.message, p.rule, p.severity !== 'warning', options.baseDir);
}

/** The vfile-reporter report of messages, grouped by file in first-appearance order. */
export function formatMessages(messages: readonly MessageJson[], options: ReportOptions = {}): string {
  const fallback = options.baseDir ?? '.';
  if (messages.length === 0) return reporter([new VFile({ path: fallback })], { color: options.color ?? false });
  const files = new Map<string, VFile>();
  for (const m of messages) {
    const shown = m.file ?? fallback;
    const file = files.get(shown) ?? new VFile({ path: shown });
    files.set(shown, file);
    const vfileMessage = new VFileMessage(m.reason, {
      place: m.place ?? undefined,
      ruleId: m.ruleId,
      source: m.source,
    });
    vfileMessage.file = shown;
    vfileMessage.fatal = m.fatal;
    if (m.expected) vfileMessage.expected = [...m.expected];
    file.messages.push(vfileMessage);
  }
  return reporter([...files.values()], { color: options.color ?? false });
}

/** The report `cph check` prints: `<dir>: no issues found` when there is nothing. */
export function formatDiagnostics(diagnostics: readonly Diagnostic[], options: ReportOptions = {}): string {
  return formatMessages(
    diagnostics.map((d) => diagnosticMessage(d, options)),
    options,
  );
}

/** `{"diagnostics": [...]}`, each entry in vfile's message shape, file names prefixed like the report's. */
export function diagnosticsToJson(
  diagnostics: readonly Diagnostic[],
  options: Pick<ReportOptions, 'baseDir'> = {},
): string {
  return JSON.stringify({ diagnostics: diagnostics.map((d) => diagnosticMessage(d, options)) });
}
