/** The two ways a command fails besides check diagnostics; both exit 2. */
import path from 'node:path';

/** One problem of a build: a missing image, a Typst error. `file` is relative to the course root. */
export interface BuildProblem {
  file: string | null;
  line: number | null;
  column: number | null;
  message: string;
}

/** The build could not produce its output; nothing was written. */
export class BuildError extends Error {
  readonly problems: readonly BuildProblem[];

  constructor(problems: readonly BuildProblem[] | string) {
    const list = typeof problems === 'string' ? [{ file: null, line: null, column: null, message: problems }] : problems;
    super(list.map((p) => formatProblem(p)).join('\n'));
    this.name = 'BuildError';
    this.problems = list;
  }
}

/** A bad command line: unknown command or flag, missing argument, unknown target. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** `file:line:column: message`, the form editors and CI annotators link. */
export function formatProblem(problem: BuildProblem, baseDir?: string): string {
  if (problem.file === null) return problem.message;
  const file = baseDir === undefined ? problem.file : path.join(baseDir, problem.file);
  const place = problem.line === null ? '' : `:${problem.line}${problem.column === null ? '' : `:${problem.column}`}`;
  return `${file}${place}: ${problem.message}`;
}
