// cph as a course author installs it: `npm pack -w authoring`, the tarball installed into an
// empty project, and its `cph` command run from there on a course, away from this checkout.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runNode } from '../support/subprocess.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const fixtureCourse = fileURLToPath(new URL('./fixtures/assemble-basic/course/', import.meta.url));

let work: string;
let cph: string;
let tarballFiles: string[];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cph-package-'));
  const { stdout } = await run('npm', ['pack', '-w', 'authoring', '--pack-destination', work], {
    cwd: root,
    env: cleanEnv(),
  });
  const tarball = join(work, stdout.trim().split('\n').at(-1) ?? '');
  tarballFiles = (await run('tar', ['-tzf', tarball])).stdout
    .trim()
    .split('\n')
    .map((f) => f.replace(/^package\//, ''));
  const consumer = join(work, 'consumer');
  cpSync(fixtureCourse, join(consumer, 'course'), { recursive: true });
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'course-author', private: true }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
    cwd: consumer,
    env: cleanEnv(),
  });
  cph = join(consumer, 'node_modules', '@agent-hub', 'cph', 'bin', 'cph.js');
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed authoring tool', () => {
  it('ships its sources, precompiled validators, kinds, schema and LICENSE, and none of the server or tests', () => {
    expect(tarballFiles).toEqual(
      expect.arrayContaining([
        'bin/cph.js',
        'generated/kind-validators.cjs',
        'index.ts',
        'kinds/lesson.schema.json',
        'schema/course.schema.json',
        'template/course.yaml',
        'package.json',
        'LICENSE',
      ]),
    );
    expect(
      tarballFiles.filter(
        (f) => !/^(bin|generated|src|kinds|schema|template)\/|^(index\.ts|package\.json|README\.md|LICENSE)$/.test(f),
      ),
    ).toEqual([]);
  });

  it('checks and builds a course where it is installed', async () => {
    const consumer = join(work, 'consumer');
    const env = cleanEnv();
    const checked = await runNode(cph, ['check', 'course'], { cwd: consumer, env });
    expect(checked.code, checked.stderr).toBe(0);
    const built = await runNode(cph, ['build', 'course', '--target', 'slides', '--out', 'out'], { cwd: consumer, env });
    expect(built.code, built.stderr).toBe(0);
    expect(readFileSync(join(consumer, 'out', 'slides.md'), 'utf8')).toContain('# Warehouse Safety');
  });

  it('makes a new course with init that checks and builds, as the README shows', async () => {
    const consumer = join(work, 'consumer');
    const env = cleanEnv();
    const made = await runNode(cph, ['init', 'my-course'], { cwd: consumer, env });
    expect(made.code, made.stderr).toBe(0);
    // The next step it prints runs as printed, in the project where cph is installed.
    const next = /^next: (.+)$/m.exec(made.stdout)?.[1];
    expect(next).toBe('npx cph check my-course && npx cph build my-course --target slides');
    const followed = await run('sh', ['-c', next!], { cwd: consumer, env });
    expect(followed.stdout).toContain('my-course: no issues found');
    expect(readFileSync(join(consumer, 'my-course', 'build', 'slides.md'), 'utf8')).toMatch(/^# My course\n/);
    expect((await runNode(cph, ['--version'], { cwd: consumer, env })).stdout.trim()).toBe(
      JSON.parse(readFileSync(join(root, 'authoring', 'package.json'), 'utf8')).version,
    );
  });

  it('is not a dependency of the server: the server installs neither Typst nor remark', () => {
    const server = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(server.dependencies).filter((name) => /typst|remark|unified|vfile/.test(name))).toEqual([]);
  });
});
