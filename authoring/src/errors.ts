/** The two ways a command fails besides check diagnostics; both exit 2. */
import path from 'node:path';

/**
 * What went wrong in a build. These are not check diagnostics (a missing image is a build
 * error, not one of the six classes), so they carry rules of their own.
 */
export type BuildRule =
  | 'image-missing'
  | 'image-outside-course'
  | 'part-unclosed'
  | 'reference-conflict'
  | 'typst-error'
  | 'typst-warning'
  | 'output-unwritable';

/** One problem of a build: a missing image, a Typst error. `file` is relative to the course root. */
export interface BuildProblem {
  file: string | null;
  line: number | null;
  column: number | null;
  message: string;
  rule: BuildRule;
  /** Warnings (Typst's) are reported but do not fail the build; the default is error. */
  severity?: 'error' | 'warning';
}

/** The build could not produce its output; nothing was written. */
export class BuildError extends Error {
  readonly problems: readonly BuildProblem[];

  constructor(problems: readonly BuildProblem[]) {
    super(problems.map((p) => formatProblem(p)).join('\n'));
    this.name = 'BuildError';
    this.problems = problems;
  }
}

/** A bad command line: unknown command or flag, missing argument, unknown target. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** `file:line:column: message`, one line (the error's own message; reports use vfile-reporter). */
export function formatProblem(problem: BuildProblem, baseDir?: string): string {
  if (problem.file === null) return problem.message;
  const file = baseDir === undefined ? problem.file : path.join(baseDir, problem.file);
  const place = problem.line === null ? '' : `:${problem.line}${problem.column === null ? '' : `:${problem.column}`}`;
  return `${file}${place}: ${problem.message}`;
}
