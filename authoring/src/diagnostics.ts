/**
 * Check diagnostics: exactly six classes, each with the file (relative to the course root), the
 * line when known, and a message. Rendered for people by vfile-reporter, for machines as JSON.
 */
import path from 'node:path';
import { VFile } from 'vfile';
import { VFileMessage } from 'vfile-message';
import { reporter } from 'vfile-reporter';

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
  /** 1-based; shown in the human report, not part of the JSON output. */
  column?: number;
  message: string;
}

export interface ReportOptions {
  /** Prefix for the file names shown: the course directory as the user typed it. */
  baseDir?: string;
  color?: boolean;
}

function shownPath(file: string, baseDir: string | undefined): string {
  return baseDir === undefined ? file : path.join(baseDir, file);
}

/** The vfile-reporter report: diagnostics grouped by file, in first-appearance order. */
export function formatDiagnostics(diagnostics: readonly Diagnostic[], options: ReportOptions = {}): string {
  if (diagnostics.length === 0) {
    return reporter([new VFile({ path: options.baseDir ?? '.' })], { color: options.color ?? false });
  }
  const files = new Map<string, VFile>();
  for (const d of diagnostics) {
    const shown = shownPath(d.file, options.baseDir);
    let file = files.get(shown);
    if (!file) files.set(shown, (file = new VFile({ path: shown })));
    const place = d.line === null ? undefined : { line: d.line, column: d.column ?? 1 };
    const message = new VFileMessage(d.message, { place, ruleId: d.class, source: 'cph' });
    message.file = shown;
    message.fatal = true;
    file.messages.push(message);
  }
  return reporter([...files.values()], { color: options.color ?? false });
}

/** `{"diagnostics": [{"class", "file", "line", "message"}]}`, file names prefixed like the report's. */
export function diagnosticsToJson(diagnostics: readonly Diagnostic[], options: Pick<ReportOptions, 'baseDir'> = {}): string {
  return JSON.stringify({
    diagnostics: diagnostics.map((d) => ({ class: d.class, file: shownPath(d.file, options.baseDir), line: d.line, message: d.message })),
  });
}
