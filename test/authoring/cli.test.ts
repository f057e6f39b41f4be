/** The real `cph` as a subprocess: exit codes, output formats, usage errors. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { USAGE } from '../../authoring/index.js';
import { copyFixture, FIXTURES, removeTempDirs, runCph, tempDir, type CliResult } from './support.js';

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
      [['build', 'assemble-basic/course', '--target', 'nope', '--out', tempDir()], /^cph build: unknown target "nope" \(targets of this course: slides, transcript, handout\)\n$/],
      [['targets', 'assemble-basic/course', '--json'], /--json/],
    ];
    const results = await Promise.all(cases.map(([args]) => cph(...args)));
    results.forEach((result, i) => expectUsageError(result, cases[i]![1]));
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
    expect(lines[1]).toMatch(/^5:13\s+error\s+parts\[0\]\.format: must be one of typeset, markdown\s+course-invalid\s+cph$/);
    expect(result.stdout).toMatch(/✖ 6 errors\n+$/);
  });

  it('prints {"diagnostics": [...]} with --json, file names as the user typed the directory', async () => {
    for (const cls of ['course-invalid', 'unknown-kind', 'part-missing', 'content-missing', 'content-unexpected', 'outline-invalid']) {
      const result = await cph('check', `diag-${cls}/course`, '--json');
      expect(result.code, cls).toBe(1);
      const parsed = JSON.parse(result.stdout) as { diagnostics: Record<string, unknown>[] };
      expect(Object.keys(parsed)).toEqual(['diagnostics']);
      expect(parsed.diagnostics.length).toBeGreaterThan(0);
      for (const d of parsed.diagnostics) {
        expect(Object.keys(d)).toEqual(['class', 'file', 'line', 'message']);
        expect(d.class).toBe(cls);
        expect(d.file).toMatch(new RegExp(`^diag-${cls}/course/`));
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
    expect(fs.readFileSync(path.join(course, 'build/slides.md'), 'utf8')).toBe(fs.readFileSync(path.join(FIXTURES, 'assemble-basic/expected/slides/slides.md'), 'utf8'));
  });

  it('exits 1 with the diagnostics on stderr when the check fails, writing nothing', async () => {
    const course = copyFixture('diag-content-missing');
    fs.appendFileSync(path.join(course, 'course.yaml'), 'targets:\n  slides:\n    assemble-markdown:\n      field: slides\n');
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
    expect(result.stderr).toBe(
      [
        'missing-image/course/parts/intro/slides.md:7:1: image "img/gone.png" not found (looked for parts/intro/img/gone.png)',
        'missing-image/course/parts/outro/slides.md:5:1: image "img/also%20gone.png" not found (looked for parts/outro/img/also gone.png)',
        'cph build: build failed; nothing was written',
        '',
      ].join('\n'),
    );
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
    expect(result).toEqual({ code: 0, stdout: '', stderr: 'cph build: the course has no typeset targets; nothing to compile\n' });
  });

  it('exits 2 on a Typst error with the part file and line', async () => {
    const result = await cph('build', 'typeset-error/course', '--target', 'handout', '--out', tempDir());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^typeset-error\/course\/parts\/drill\/lab\.typ:4:2: typst error: unknown variable: undefined-function/);
  });
});

describe('cph targets', () => {
  it('lists every target, or only the typeset compile targets', async () => {
    expect(await cph('targets', 'typeset-basic/course')).toEqual({ code: 0, stdout: 'slides\nhandout\nprint\n', stderr: '' });
    expect(await cph('targets', 'typeset-basic/course', '--typeset')).toEqual({ code: 0, stdout: 'handout\nprint\n', stderr: '' });
    expect(await cph('targets', 'assemble-unusual/course', '--typeset')).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('exits 1 with the diagnostics when course.yaml is invalid', async () => {
    const result = await cph('targets', 'diag-course-invalid-yaml/course');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('course-invalid');
  });
});
