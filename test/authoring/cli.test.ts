/** The real `cph` as a subprocess: exit codes, output formats, usage errors. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { spawn } from 'node:child_process';
import { COMMAND_USAGE, DIAGNOSTIC_CLASSES, USAGE, version } from '../../authoring/index.js';
import { copyFixture, CPH_BIN, FIXTURES, removeTempDirs, runCph, tempDir, type CliResult } from './support.js';

afterAll(removeTempDirs);
// Each test starts node + tsx one or more times; a loaded CI machine needs the headroom.
vi.setConfig({ testTimeout: 90_000 });

/** Runs with the fixtures directory as working directory, so paths read as the user typed them. */
const cph = (...args: string[]) => runCph(args, { cwd: FIXTURES });

function expectUsageError(result: CliResult, pattern: RegExp): void {
  expect(result.code).toBe(2);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
  expect(result.stdout).toBe('');
}

describe('cph usage', () => {
  it('prints the usage on help, -h and --help', async () => {
    for (const flag of ['help', '-h', '--help']) {
      const result = await cph(flag);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`${USAGE}\n`);
    }
  });

  it("prints the version, and each command's help with <command> --help or help <command>", async () => {
    expect(await cph('--version')).toEqual({ code: 0, stdout: `${version()}\n`, stderr: '' });
    expect(version()).toMatch(/^\d+\.\d+\.\d+/);
    for (const name of ['check', 'build', 'init', 'targets'] as const) {
      for (const args of [
        [name, '--help'],
        [name, 'some/dir', '-h'],
        ['help', name],
      ]) {
        expect(await cph(...args), args.join(' ')).toEqual({ code: 0, stdout: `${COMMAND_USAGE[name]}\n`, stderr: '' });
      }
    }
    expect(await cph('help', '--help')).toEqual({ code: 0, stdout: `${COMMAND_USAGE.help}\n`, stderr: '' });
    expect(COMMAND_USAGE.build).toContain('--watch');
    expect(COMMAND_USAGE.build).toContain('--json');
  });

  it('suggests the command meant by a misspelt one', async () => {
    expectUsageError(await cph('chek', 'x'), /^cph: unknown command "chek" \(did you mean "check"\?\)/);
    expectUsageError(await cph('help', 'biuld'), /^cph: unknown command "biuld" \(did you mean "build"\?\)/);
  });

  it('refuses bad command lines with one line on stderr and exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [[], /^cph: a command is required/],
      [['lint', 'x'], /^cph: unknown command "lint"/],
      [['check'], /^cph check: the course directory is required/],
      [['check', 'assemble-basic/course', '--strict'], /^cph check: .*--strict/],
      [['check', 'assemble-basic/course', 'extra'], /unexpected argument "extra"/],
      [['check', 'no/such/course'], /^cph check: no course directory "no\/such\/course"/],
      [['build', 'assemble-basic/course'], /--target <name> or --all-typeset is required/],
      [['build', 'assemble-basic/course', '--target'], /--target/],
      [['build', 'assemble-basic/course', '--target', 'slides', '--all-typeset'], /not both/],
      [
        ['build', 'assemble-basic/course', '--target', 'nope', '--out', tempDir()],
        /^cph build: unknown target "nope" \(targets of this course: slides, transcript, handout\)\n$/,
      ],
      [
        ['build', 'assemble-basic/course', '--target', 'slide', '--out', tempDir()],
        /unknown target "slide" .*; did you mean "slides"\?\n$/,
      ],
      [['build', 'assemble-basic/course', '--target', 'nope', '--watch'], /unknown target "nope"/],
      [['init'], /^cph init: the directory of the new course is required/],
      [['init', 'assemble-basic'], /^cph init: "assemble-basic" is not empty/],
      [['targets', 'assemble-basic/course', '--json'], /--json/],
    ];
    const results = await Promise.all(cases.map(([args]) => cph(...args)));
    for (const [i, result] of results.entries()) expectUsageError(result, cases[i]![1]);
  });
});

describe('cph check', () => {
  it('exits 0 on a clean course, saying so', async () => {
    const result = await cph('check', 'assemble-basic/course');
    expect(result).toEqual({ code: 0, stdout: 'assemble-basic/course: no issues found\n', stderr: '' });
    const json = await cph('check', 'assemble-basic/course', '--json');
    expect(json).toEqual({ code: 0, stdout: '{"diagnostics":[]}\n', stderr: '' });
  });

  it('exits 1 with a vfile-reporter report of every diagnostic', async () => {
    const result = await cph('check', 'diag-course-invalid/course');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('diag-course-invalid/course/course.yaml');
    expect(lines[1]).toMatch(
      /^5:13\s+error\s+parts\[0\]\.format: must be one of typeset, markdown\s+course-invalid\s+cph$/,
    );
    expect(result.stdout).toMatch(/✖ 6 errors\n+$/);
  });

  it('prints {"diagnostics": [...]} with --json, file names as the user typed the directory', async () => {
    for (const cls of DIAGNOSTIC_CLASSES) {
      const result = await cph('check', `diag-${cls}/course`, '--json');
      expect(result.code, cls).toBe(1);
      const parsed = JSON.parse(result.stdout) as { diagnostics: Record<string, unknown>[] };
      expect(Object.keys(parsed)).toEqual(['diagnostics']);
      expect(parsed.diagnostics.length).toBeGreaterThan(0);
      for (const d of parsed.diagnostics) {
        // vfile's message fields, then `class` and `message`, the aliases of `ruleId` and `reason`.
        expect(Object.keys(d).slice(0, 10)).toEqual([
          'file',
          'line',
          'column',
          'place',
          'reason',
          'ruleId',
          'source',
          'fatal',
          'class',
          'message',
        ]);
        expect(d).toMatchObject({ class: cls, ruleId: cls, source: 'cph', fatal: true, message: d.reason });
        expect(d.file).toMatch(new RegExp(`^diag-${cls}/course/`));
        expect(d.place).toEqual(d.line === null ? null : { line: d.line, column: d.column ?? 1 });
      }
    }
  });

  it('colors the report only when asked or on a terminal', async () => {
    const plain = await cph('check', 'diag-unknown-kind/course');
    expect(plain.stdout).not.toContain('\u001b[');
    const colored = await runCph(['check', 'diag-unknown-kind/course'], { cwd: FIXTURES, env: { FORCE_COLOR: '1' } });
    expect(colored.stdout).toContain('\u001b[');
  });
});

describe('cph build', () => {
  it('builds a markdown target into the default build root and says what it wrote', async () => {
    const course = copyFixture('assemble-basic');
    const result = await runCph(['build', '.', '--target', 'slides'], { cwd: course });
    expect(result).toEqual({ code: 0, stdout: 'wrote build/slides.md (2 parts, 2 images)\n', stderr: '' });
    expect(fs.readFileSync(path.join(course, 'build/slides.md'), 'utf8')).toBe(
      fs.readFileSync(path.join(FIXTURES, 'assemble-basic/expected/slides/slides.md'), 'utf8'),
    );
  });

  it('exits 1 with the diagnostics on stderr when the check fails, writing nothing', async () => {
    const course = copyFixture('diag-content-missing');
    fs.appendFileSync(
      path.join(course, 'course.yaml'),
      'targets:\n  slides:\n    assemble-markdown:\n      field: slides\n',
    );
    const result = await runCph(['build', course, '--target', 'slides'], {});
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('content-missing');
    expect(result.stderr).toMatch(/cph build: not built: fix the problems above first\n$/);
    expect(fs.existsSync(path.join(course, 'build'))).toBe(false);
  });

  it('exits 2 on a missing image with the referencing file and line, writing nothing', async () => {
    const out = path.join(tempDir(), 'out');
    const result = await cph('build', 'missing-image/course', '--target', 'slides', '--out', out);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toEqual([
      'missing-image/course/parts/intro/slides.md',
      expect.stringMatching(
        new RegExp(
          /^7:1 +error image "img\/gone\.png" not found /.source +
            /\(looked for parts\/intro\/img\/gone\.png\): .* image-missing cph$/.source,
        ),
      ),
      '',
      'missing-image/course/parts/outro/slides.md',
      expect.stringMatching(
        new RegExp(
          /^5:1 +error image "img\/also%20gone\.png" not found /.source +
            /\(looked for parts\/outro\/img\/also gone\.png\).* image-missing/.source,
        ),
      ),
      '',
      '✖ 2 errors',
      'cph build: build failed; nothing was written',
      '',
    ]);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('compiles every typeset target with --all-typeset, and a single one with --target', async () => {
    const out = tempDir();
    const all = await cph('build', 'typeset-basic/course', '--all-typeset', '--out', out);
    expect(all.code).toBe(0);
    expect(all.stdout).toBe(`wrote ${out}/handout.pdf (2 parts)\nwrote ${out}/print.pdf (2 parts)\n`);
    expect(fs.readFileSync(path.join(out, 'print.pdf')).subarray(0, 4).toString()).toBe('%PDF');
    const one = await cph('build', 'typeset-basic/course', '--target', 'handout', '--out', path.join(out, 'one'));
    expect(one.code).toBe(0);
    expect(fs.readdirSync(path.join(out, 'one'))).toEqual(['handout.pdf']);
  });

  it('says so when --all-typeset has nothing to compile', async () => {
    const result = await cph('build', 'assemble-unusual/course', '--all-typeset', '--out', tempDir());
    expect(result).toEqual({
      code: 0,
      stdout: '',
      stderr: 'cph build: the course has no typeset targets; nothing to compile\n',
    });
  });

  it('exits 2 on a Typst error with the part file and line', async () => {
    const result = await cph('build', 'typeset-error/course', '--target', 'handout', '--out', tempDir());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        /^typeset-error\/course\/parts\/drill\/lab\.typ\n/.source +
          /4:2 +error typst error: unknown variable: undefined-function.* typst-error/.source,
      ),
    );
  });
});

describe('cph build --json', () => {
  const parse = (result: CliResult) => JSON.parse(result.stdout) as Record<string, Record<string, unknown>[]>;

  it('prints the outputs of a build', async () => {
    const out = tempDir();
    const result = await cph('build', 'assemble-basic/course', '--target', 'slides', '--out', out, '--json');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(parse(result)).toEqual({
      diagnostics: [],
      errors: [],
      warnings: [],
      outputs: [{ target: 'slides', file: `${out}/slides.md`, parts: 2, images: 2 }],
    });
  });

  it('prints build errors as vfile messages with their own rules, not one of the six classes', async () => {
    const result = await cph('build', 'missing-image/course', '--target', 'slides', '--out', tempDir(), '--json');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('');
    const { errors, diagnostics } = parse(result);
    expect(diagnostics).toEqual([]);
    expect(errors!.map((e) => [e.file, e.line, e.column, e.ruleId, e.source, e.fatal, e.class])).toEqual([
      ['missing-image/course/parts/intro/slides.md', 7, 1, 'image-missing', 'cph', true, undefined],
      ['missing-image/course/parts/outro/slides.md', 5, 1, 'image-missing', 'cph', true, undefined],
    ]);
    expect(errors![0]!.reason).toBe(errors![0]!.message);
  });

  it('prints the check diagnostics when the check refuses the build', async () => {
    const course = copyFixture('diag-content-missing');
    fs.appendFileSync(
      path.join(course, 'course.yaml'),
      'targets:\n  slides:\n    assemble-markdown:\n      field: slides\n',
    );
    const result = await runCph(['build', course, '--target', 'slides', '--json']);
    expect(result.code).toBe(1);
    expect(parse(result).diagnostics!.map((d) => d.class)).toEqual(['content-missing', 'content-missing']);
  });
});

describe('cph init', () => {
  it('makes a course that checks and builds every target, titled after its directory', async () => {
    const parent = tempDir();
    const made = await runCph(['init', 'my-course'], { cwd: parent });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^made my-course: \d+ files, course "My course"\n/);
    const course = path.join(parent, 'my-course');
    expect(fs.readFileSync(path.join(course, 'course.yaml'), 'utf8')).toMatch(/^title: "My course"$/m);
    expect(await runCph(['check', 'my-course'], { cwd: parent })).toEqual({
      code: 0,
      stdout: 'my-course: no issues found\n',
      stderr: '',
    });
    const targets = await runCph(['targets', 'my-course'], { cwd: parent });
    expect(targets.stdout).toBe('slides\ntranscript\nhandout\n');
    for (const target of ['slides', 'transcript', 'handout']) {
      const built = await runCph(['build', 'my-course', '--target', target], { cwd: parent });
      expect(built.code, built.stderr).toBe(0);
    }
    expect(fs.readdirSync(path.join(course, 'build')).sort()).toEqual([
      'handout.pdf',
      'parts',
      'slides.md',
      'transcript.md',
    ]);
    expect(fs.existsSync(path.join(course, 'build/parts/welcome/img/welcome.png'))).toBe(true);
  });

  it('takes a title, and refuses a directory that is not empty', async () => {
    const dir = path.join(tempDir(), 'c');
    expect((await runCph(['init', dir, '--title', 'Forklift: "safety" first'])).code).toBe(0);
    expect((await runCph(['check', dir])).code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'course.yaml'), 'utf8')).toContain('title: "Forklift: \\"safety\\" first"');
    expectUsageError(await runCph(['init', dir]), /is not empty: cph init makes a course in a new or empty directory/);
  });
});

describe('cph build --watch', () => {
  /** Polls `condition` until it holds; fails after `limitMs` (generous: a loaded machine is slow, never wrong). */
  async function eventually(condition: () => boolean, what: string, limitMs = 60_000): Promise<void> {
    const until = Date.now() + limitMs;
    while (!condition()) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('builds, then builds again when a file of the course changes, until it is stopped', async () => {
    const course = copyFixture('assemble-basic');
    const output = path.join(course, 'build', 'slides.md');
    // A process: `--watch` runs until it is stopped by a signal.
    const child = spawn(process.execPath, [CPH_BIN, 'build', course, '--target', 'slides', '--watch'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      await eventually(() => stderr.includes('watching'), 'the first build and the watch to start');
      expect(fs.readFileSync(output, 'utf8')).not.toContain('Added while watching');
      fs.appendFileSync(path.join(course, 'parts/welcome/slides.md'), '\n## Added while watching\n');
      await eventually(() => fs.readFileSync(output, 'utf8').includes('## Added while watching'), 'the rebuilt output');
      await eventually(() => stdout.split('wrote ').length >= 3, 'the second build to report');
      // A broken change is reported, and the watch goes on.
      fs.appendFileSync(path.join(course, 'parts/welcome/slides.md'), '\n![gone](img/gone.png)\n');
      await eventually(() => stderr.includes('image-missing'), 'the build error of the broken change');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(fs.readFileSync(output, 'utf8')).toContain('## Added while watching');
  });
});

describe('cph targets', () => {
  it('lists every target, or only the typeset compile targets', async () => {
    expect(await cph('targets', 'typeset-basic/course')).toEqual({
      code: 0,
      stdout: 'slides\nhandout\nprint\n',
      stderr: '',
    });
    expect(await cph('targets', 'typeset-basic/course', '--typeset')).toEqual({
      code: 0,
      stdout: 'handout\nprint\n',
      stderr: '',
    });
    expect(await cph('targets', 'assemble-unusual/course', '--typeset')).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('exits 1 with the diagnostics when course.yaml is invalid', async () => {
    const result = await cph('targets', 'diag-course-invalid-yaml/course');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('course-invalid');
  });
});
