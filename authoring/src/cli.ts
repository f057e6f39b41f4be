/**
 * The `cph` command. Exit codes: 0 ok, 1 check diagnostics, 2 build error or bad usage.
 * Bad usage is one line on stderr; check reports go to stdout (`check`) or stderr (`build`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { buildAllTypeset, buildTarget, typesetTargets, type BuildResult } from './build.js';
import { checkCourse } from './check.js';
import { diagnosticsToJson, formatDiagnostics } from './diagnostics.js';
import { BuildError, formatProblem, UsageError } from './errors.js';
import { KindSchemaError } from './kinds.js';

export const USAGE = `Usage: cph <command>

Commands:
  check <dir> [--json]                        check the course: course.yaml, kinds, part content, slide outlines
  build <dir> --target <name> [--out <out>]   check, then build one target into <out> (default <dir>/build)
  build <dir> --all-typeset [--out <out>]     check, then compile every typeset target to <out>/<target>.pdf
  targets <dir> [--typeset]                   list the course's targets, one per line (--typeset: compile targets only)
  help                                        show this text

Exit codes: 0 ok, 1 check diagnostics, 2 build error or bad usage.`;

/** Where the command writes; the real process streams by default, replaceable in tests. */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

type Command = (args: string[], io: Io) => Promise<number>;

const commands: Record<string, Command> = {
  async check(args, io) {
    const { values, dir } = parse(args, { json: { type: 'boolean' } });
    const { diagnostics } = checkCourse(dir);
    if (values.json) io.stdout.write(`${diagnosticsToJson(diagnostics, { baseDir: dir })}\n`);
    else io.stdout.write(`${formatDiagnostics(diagnostics, { baseDir: dir, color: useColor(io.stdout, io.env) })}\n`);
    return diagnostics.length > 0 ? 1 : 0;
  },

  async build(args, io) {
    const { values, dir } = parse(args, { target: { type: 'string' }, 'all-typeset': { type: 'boolean' }, out: { type: 'string' } });
    const target = values.target;
    if (target !== undefined && values['all-typeset']) throw new UsageError('give either --target or --all-typeset, not both');
    if (target === undefined && !values['all-typeset']) throw new UsageError('--target <name> or --all-typeset is required');
    if (target !== undefined && target.trim() === '') throw new UsageError('--target needs a target name');
    if (values.out !== undefined && values.out.trim() === '') throw new UsageError('--out needs a directory');
    const options = values.out === undefined ? {} : { out: values.out };
    let result: BuildResult;
    try {
      result = target !== undefined ? await buildTarget(dir, target, options) : await buildAllTypeset(dir, options);
    } catch (err) {
      if (!(err instanceof BuildError)) throw err;
      for (const problem of err.problems) io.stderr.write(`${formatProblem(problem, dir)}\n`);
      io.stderr.write('cph build: build failed; nothing was written\n');
      return 2;
    }
    if (!result.ok) {
      io.stderr.write(`${formatDiagnostics(result.diagnostics, { baseDir: dir, color: useColor(io.stderr, io.env) })}\n`);
      io.stderr.write('cph build: not built: fix the problems above first\n');
      return 1;
    }
    if (result.outputs.length === 0) io.stderr.write('cph build: the course has no typeset targets; nothing to compile\n');
    for (const output of result.outputs) {
      for (const warning of output.warnings) io.stderr.write(`${formatProblem(warning, dir)}\n`);
      const images = output.images > 0 ? `, ${output.images} image${output.images === 1 ? '' : 's'}` : '';
      io.stdout.write(`wrote ${shown(output.file)} (${output.parts} part${output.parts === 1 ? '' : 's'}${images})\n`);
    }
    return 0;
  },

  async targets(args, io) {
    const { values, dir } = parse(args, { typeset: { type: 'boolean' } });
    // Only course.yaml matters here; its problems are reported like the check's.
    const { course, diagnostics } = checkCourse(dir);
    if (!course) {
      io.stderr.write(`${formatDiagnostics(diagnostics, { baseDir: dir, color: useColor(io.stderr, io.env) })}\n`);
      return 1;
    }
    const names = (values.typeset ? typesetTargets(course) : course.targets).map((t) => t.name);
    io.stdout.write(names.map((n) => `${n}\n`).join(''));
    return 0;
  },
};

type Options = NonNullable<ParseArgsConfig['options']>;

/** Flags and exactly one positional, the course directory, which must exist. */
function parse<O extends Options>(args: string[], options: O) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]!);
  }
  const [dir, ...extra] = parsed.positionals;
  if (dir === undefined) throw new UsageError('the course directory is required');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  let isDir = false;
  try {
    isDir = fs.statSync(dir).isDirectory();
  } catch {
    // reported below
  }
  if (!isDir) throw new UsageError(`no course directory "${dir}"`);
  return { values: parsed.values, dir };
}

function useColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}

function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** Runs one cph command line; resolves to the exit code. */
export async function main(argv: readonly string[], io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  const [name, ...args] = argv;
  if (name === 'help' || name === '--help' || name === '-h') {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (name === undefined) {
    io.stderr.write('cph: a command is required; run "cph help"\n');
    return 2;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    io.stderr.write(`cph: unknown command "${name}"; run "cph help"\n`);
    return 2;
  }
  try {
    return await command(args, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`cph ${name}: ${err.message}\n`);
      return 2;
    }
    if (err instanceof KindSchemaError) {
      io.stderr.write(`cph ${name}: broken kind schema: ${err.message}\n`);
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr.write(`cph ${name}: unexpected failure: ${message}\n`);
    return 2;
  }
}
