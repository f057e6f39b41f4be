/**
 * The `cph` command. Exit codes: 0 ok, 1 check diagnostics, 2 build error or bad usage.
 * Bad usage is one line on stderr; check reports go to stdout (`check`) or stderr (`build`).
 *
 * Each command imports what it needs when it runs: the markdown parser, ajv and Typst are
 * loaded by the commands that use them, not by every start of the tool.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { BuildResult } from './build.js';
import type { MessageJson } from './diagnostics.js';
import { BuildError, UsageError, type BuildProblem } from './errors.js';
import { closest } from './suggest.js';
import { COMMAND_USAGE, helpText, USAGE } from './usage.js';

export { USAGE };

/** Where the command writes; the real process streams by default, replaceable in tests. */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Ends `build --watch`; without one, SIGINT and SIGTERM do. */
  signal?: AbortSignal;
}

type Command = (args: string[], io: Io) => Promise<number>;

const commands: Record<string, Command> = {
  async check(args, io) {
    const { values, dir } = parse(args, { json: { type: 'boolean' } });
    const { checkCourse } = await import('./check.js');
    const { diagnosticsToJson, formatDiagnostics } = await import('./diagnostics.js');
    const { diagnostics } = checkCourse(dir);
    if (values.json) io.stdout.write(`${diagnosticsToJson(diagnostics, { baseDir: dir })}\n`);
    else io.stdout.write(`${formatDiagnostics(diagnostics, { baseDir: dir, color: useColor(io.stdout, io.env) })}\n`);
    return diagnostics.length > 0 ? 1 : 0;
  },

  async build(args, io) {
    const { values, dir } = parse(args, {
      target: { type: 'string' },
      'all-typeset': { type: 'boolean' },
      out: { type: 'string' },
      json: { type: 'boolean' },
      watch: { type: 'boolean' },
    });
    const target = values.target;
    if (target !== undefined && values['all-typeset'])
      throw new UsageError('give either --target or --all-typeset, not both');
    if (target === undefined && !values['all-typeset'])
      throw new UsageError('--target <name> or --all-typeset is required');
    if (target !== undefined && target.trim() === '') throw new UsageError('--target needs a target name');
    if (values.out !== undefined && values.out.trim() === '') throw new UsageError('--out needs a directory');
    const build = () => buildOnce(dir, { target, out: values.out, json: values.json === true }, io);
    if (!values.watch) return build();
    const { buildRootOf } = await import('./build.js');
    const { watchCourse } = await import('./watch.js');
    // A bad command line (an unknown target) throws and is not watched; check and build problems are.
    await build();
    // A failure of one rebuild (an unreadable file mid-save) is reported; the next change builds again.
    const rebuild = () =>
      build().catch((err: unknown) =>
        io.stderr.write(`cph build: ${err instanceof Error ? err.message : String(err)}\n`),
      );
    await watchCourse(dir, {
      ignore: buildRootOf(dir, values.out),
      signal: io.signal ?? interrupted(),
      onChange: rebuild,
      onReady: () => io.stderr.write(`cph build: watching ${dir} for changes (Ctrl-C to stop)\n`),
    });
    return 0;
  },

  async init(args, io) {
    const { values, positionals } = parseFlags(args, { title: { type: 'string' } });
    const [dir, ...extra] = positionals;
    if (dir === undefined) throw new UsageError('the directory of the new course is required');
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const { initCourse } = await import('./init.js');
    const made = initCourse(dir, values.title === undefined ? {} : { title: values.title });
    io.stdout.write(`made ${dir}: ${made.files.length} files, course "${made.title}"\n`);
    // `npx` finds a project's local install as well as a global one, so the line runs as printed.
    io.stdout.write(`next: npx cph check ${dir} && npx cph build ${dir} --target slides\n`);
    return 0;
  },

  async targets(args, io) {
    const { values, dir } = parse(args, { typeset: { type: 'boolean' } });
    // Only course.yaml matters here: the parts are not read.
    const { readCourseFile } = await import('./course.js');
    const { typesetTargets } = await import('./build.js');
    const { config, diagnostics } = readCourseFile(path.resolve(dir));
    if (!config) {
      const { formatDiagnostics } = await import('./diagnostics.js');
      io.stderr.write(`${formatDiagnostics(diagnostics, { baseDir: dir, color: useColor(io.stderr, io.env) })}\n`);
      return 1;
    }
    const names = (values.typeset ? typesetTargets(config) : config.targets).map((t) => t.name);
    io.stdout.write(names.map((n) => `${n}\n`).join(''));
    return 0;
  },
};

/** One build and its report; 0 built, 1 check diagnostics, 2 build error. */
async function buildOnce(
  dir: string,
  options: { target: string | undefined; out: string | undefined; json: boolean },
  io: Io,
): Promise<number> {
  const { buildAllTypeset, buildTarget } = await import('./build.js');
  const { diagnosticMessage, formatMessages, problemMessage } = await import('./diagnostics.js');
  const buildOptions = options.out === undefined ? {} : { out: options.out };
  const report = (stream: Io['stderr'], messages: MessageJson[]) =>
    stream.write(`${formatMessages(messages, { baseDir: dir, color: useColor(stream, io.env) })}\n`);
  const toJson = (parts: {
    diagnostics?: MessageJson[];
    errors?: MessageJson[];
    warnings?: MessageJson[];
    outputs?: object[];
  }) => io.stdout.write(`${JSON.stringify({ diagnostics: [], errors: [], warnings: [], outputs: [], ...parts })}\n`);
  const asMessages = (problems: readonly BuildProblem[]) => problems.map((p) => problemMessage(p, { baseDir: dir }));

  let result: BuildResult;
  try {
    result =
      options.target !== undefined
        ? await buildTarget(dir, options.target, buildOptions)
        : await buildAllTypeset(dir, buildOptions);
  } catch (err) {
    if (!(err instanceof BuildError)) throw err;
    if (options.json) toJson({ errors: asMessages(err.problems) });
    else {
      report(io.stderr, asMessages(err.problems));
      io.stderr.write('cph build: build failed; nothing was written\n');
    }
    return 2;
  }
  if (!result.ok) {
    const diagnostics = result.diagnostics.map((d) => diagnosticMessage(d, { baseDir: dir }));
    if (options.json) toJson({ diagnostics });
    else {
      report(io.stderr, diagnostics);
      io.stderr.write('cph build: not built: fix the problems above first\n');
    }
    return 1;
  }
  const warnings = asMessages(result.outputs.flatMap((o) => o.warnings).filter((w, i, all) => all.indexOf(w) === i));
  if (options.json) {
    const outputs = result.outputs.map(({ target, file, parts, images }) => ({
      target,
      file: shown(file),
      parts,
      images,
    }));
    toJson({ warnings, outputs });
    return 0;
  }
  if (result.outputs.length === 0)
    io.stderr.write('cph build: the course has no typeset targets; nothing to compile\n');
  if (warnings.length > 0) report(io.stderr, warnings);
  for (const output of result.outputs) {
    const images = output.images > 0 ? `, ${output.images} image${output.images === 1 ? '' : 's'}` : '';
    io.stdout.write(`wrote ${shown(output.file)} (${output.parts} part${output.parts === 1 ? '' : 's'}${images})\n`);
  }
  return 0;
}

/** Aborted by the first SIGINT or SIGTERM. */
function interrupted(): AbortSignal {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  controller.signal.addEventListener('abort', () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  });
  return controller.signal;
}

type Options = NonNullable<ParseArgsConfig['options']>;

function parseFlags<O extends Options>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]!);
  }
}

/** Flags and exactly one positional, the course directory, which must exist. */
function parse<O extends Options>(args: string[], options: O) {
  const parsed = parseFlags(args, options);
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

function unknownCommand(name: string): string {
  const match = closest(name, Object.keys(COMMAND_USAGE));
  return `cph: unknown command "${name}"${match ? ` (did you mean "${match}"?)` : ''}; run "cph help"\n`;
}

/** Runs one cph command line; resolves to the exit code. */
export async function main(
  argv: readonly string[],
  io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env },
): Promise<number> {
  const help = helpText(argv);
  if (help !== undefined) {
    io.stdout.write(`${help}\n`);
    return 0;
  }
  const [name, ...args] = argv;
  if (name === undefined) {
    io.stderr.write('cph: a command is required; run "cph help"\n');
    return 2;
  }
  if (name === 'help' || name === '--help' || name === '-h') {
    io.stderr.write(args.length === 1 ? unknownCommand(args[0]!) : 'cph help: give at most one command\n');
    return 2;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    io.stderr.write(unknownCommand(name));
    return 2;
  }
  try {
    return await command(args, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`cph ${name}: ${err.message}\n`);
      return 2;
    }
    if (err instanceof Error && err.name === 'KindSchemaError') {
      io.stderr.write(`cph ${name}: broken kind schema: ${err.message}\n`);
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr.write(`cph ${name}: unexpected failure: ${message}\n`);
    return 2;
  }
}
