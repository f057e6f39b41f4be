// The usage texts and the version, in plain JavaScript: `cph --help` and `cph --version` are
// answered from here by bin/cph.js before the TypeScript loader starts, which is most of the
// start-up time of every other command. Its types are in usage.d.ts.
import { readFileSync } from 'node:fs';

export const USAGE = `Usage: cph <command>

Commands:
  check <dir> [--json]                 check the course: course.yaml, kinds, part content, slide outlines
  build <dir> --target <name>          check, then build one target into <dir>/build (or --out <out>)
  build <dir> --all-typeset            check, then compile every typeset target to <out>/<target>.pdf
  init <dir> [--title <title>]         make a new course in <dir> that checks and builds
  targets <dir> [--typeset]            list the course's targets, one per line (--typeset: compile targets only)
  help [<command>]                     show this text, or a command's

Options: --version prints the version; cph <command> --help shows a command's options.
Exit codes: 0 ok, 1 check diagnostics, 2 build error or bad usage.`;

/** Each command's own help, for `cph <command> --help` and `cph help <command>`. */
export const COMMAND_USAGE = {
  check: `Usage: cph check <dir> [--json]

Checks the course in <dir> and reports every diagnostic (course-invalid, unknown-kind,
part-missing, content-missing, content-unexpected, outline-invalid) on stdout.

Options:
  --json   print {"diagnostics": [...]}, each entry in vfile's message shape
           (reason, line, column, place, ruleId, source, fatal, file; class and message as aliases)

Exit codes: 0 no diagnostics, 1 diagnostics, 2 bad usage.`,
  build: `Usage: cph build <dir> (--target <name> | --all-typeset) [--out <out>] [--json] [--watch]

Checks the course, then builds one target (--target) or every compile: typeset target
(--all-typeset) into the build root <out> (default <dir>/build). Nothing is written when the
check or the build fails.

Options:
  --target <name>   the target to build (cph targets <dir> lists them)
  --all-typeset     compile every typeset target
  --out <out>       the build root (default <dir>/build)
  --json            print {"diagnostics", "errors", "warnings", "outputs"} on stdout instead of reports
  --watch           build, then build again whenever a file of the course changes (Ctrl-C stops)

Exit codes: 0 built, 1 check diagnostics, 2 build error (missing image, Typst error) or bad usage.`,
  init: `Usage: cph init <dir> [--title <title>]

Makes a new course in <dir> (a new or empty directory): course.yaml, one part of each kind,
slides and transcripts, an image, and three targets (slides, transcript, handout) that build.

Options:
  --title <title>   the course title (default: from the directory name)

Exit codes: 0 made, 2 bad usage (for instance a directory that is not empty).`,
  targets: `Usage: cph targets <dir> [--typeset]

Prints the course's target names, one per line, in course.yaml order.

Options:
  --typeset   only the compile: typeset targets

Exit codes: 0 listed, 1 course.yaml has diagnostics, 2 bad usage.`,
  help: `Usage: cph help [<command>]

Shows the usage, or a command's help.`,
};

/** The version of this cph, from its package.json. */
export function version() {
  return JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
}

/**
 * What `cph <argv>` prints when it asks for help or the version, or undefined when it asks for
 * something else: `help`, `-h`, `--help`, `--version`, `help <command>`, `<command> --help`.
 */
export function helpText(argv) {
  const [name, ...args] = argv;
  if (name === '--version' || name === '-v') return args.length === 0 ? version() : undefined;
  if (name === 'help' || name === '--help' || name === '-h') {
    if (args.length === 0) return USAGE;
    if (args.length !== 1) return undefined;
    if (args[0] === '--help' || args[0] === '-h') return COMMAND_USAGE.help;
    return Object.hasOwn(COMMAND_USAGE, args[0]) ? COMMAND_USAGE[args[0]] : undefined;
  }
  if (name !== undefined && Object.hasOwn(COMMAND_USAGE, name) && (args.includes('--help') || args.includes('-h'))) {
    return COMMAND_USAGE[name];
  }
  return undefined;
}
