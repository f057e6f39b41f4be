import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BuildError, buildTarget, UsageError } from '../../authoring/index.js';
import { copyFixture, fixtureCourse, readTree, removeTempDirs, tempDir, writeCourse } from './support.js';

afterAll(removeTempDirs);

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err,
  );

describe('build output', () => {
  it('defaults the build root to DIR/build', async () => {
    const course = copyFixture('assemble-basic');
    const result = await buildTarget(course, 'slides');
    expect(result.ok).toBe(true);
    expect([...readTree(path.join(course, 'build')).keys()]).toEqual([
      'parts/lifting/img/knees.png',
      'parts/welcome/img/floor.png',
      'slides.md',
    ]);
    // No staging directory is left beside the build root.
    expect(fs.readdirSync(course).sort()).toEqual(['build', 'course.yaml', 'parts']);
  });

  it('keeps the outputs of other targets in the build root', async () => {
    const out = path.join(tempDir(), 'out');
    await buildTarget(fixtureCourse('assemble-basic'), 'slides', { out });
    await buildTarget(fixtureCourse('assemble-basic'), 'transcript', { out });
    expect(fs.existsSync(path.join(out, 'slides.md'))).toBe(true);
    expect(fs.existsSync(path.join(out, 'transcript.md'))).toBe(true);
  });

  it('leaves an existing build root untouched when an image is missing', async () => {
    const course = copyFixture('missing-image');
    const out = path.join(course, 'build');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'slides.md'), 'previous build\n');
    const err = await failure(buildTarget(course, 'slides'));
    expect(err).toBeInstanceOf(BuildError);
    expect(readTree(out)).toEqual(new Map([['slides.md', Buffer.from('previous build\n')]]));
    expect(fs.readdirSync(course).sort()).toEqual(['build', 'course.yaml', 'parts']);

    // Once the image exists, the same build succeeds and replaces the document.
    fs.writeFileSync(path.join(course, 'parts/intro/img/gone.png'), 'png');
    fs.mkdirSync(path.join(course, 'parts/outro/img'));
    fs.writeFileSync(path.join(course, 'parts/outro/img/also gone.png'), 'png');
    expect((await buildTarget(course, 'slides')).ok).toBe(true);
    expect(fs.readFileSync(path.join(out, 'slides.md'), 'utf8')).toMatch(/^# Missing image\n/);
    expect(fs.existsSync(path.join(out, 'parts/outro/img/also gone.png'))).toBe(true);
  });

  it('reports an unwritable build root as a build error and cleans up', async () => {
    const parent = tempDir();
    const out = path.join(parent, 'taken');
    fs.writeFileSync(out, 'a file where the build root should be');
    const err = await failure(buildTarget(fixtureCourse('assemble-basic'), 'slides', { out }));
    expect(err).toBeInstanceOf(BuildError);
    expect((err as Error).message).toMatch(/cannot write the build output/);
    expect(fs.readdirSync(parent)).toEqual(['taken']);
  });

  it('refuses an unknown target with a usage error naming the known ones', async () => {
    const err = await failure(buildTarget(fixtureCourse('assemble-basic'), 'nope', { out: tempDir() }));
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe('unknown target "nope" (targets of this course: slides, transcript, handout)');
  });

  it('does not build a course with check diagnostics', async () => {
    const out = path.join(tempDir(), 'out');
    const result = await buildTarget(fixtureCourse('diag-outline-invalid'), 'slides', { out }).catch((e: unknown) => e);
    // diag-outline-invalid has no targets: the unknown target is the usage error it is.
    expect(result).toBeInstanceOf(UsageError);
    const course = copyFixture('diag-outline-invalid');
    fs.appendFileSync(
      path.join(course, 'course.yaml'),
      'targets:\n  slides:\n    assemble-markdown:\n      field: slides\n',
    );
    const checked = await buildTarget(course, 'slides', { out });
    expect(checked.ok).toBe(false);
    expect(checked.ok === false && checked.diagnostics.every((d) => d.class === 'outline-invalid')).toBe(true);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('leaves nothing beside the build root when the check refuses a course while copying its images', async () => {
    // The images of parts checked before the failing one are copied while the check goes on.
    const course = copyFixture('assemble-basic');
    fs.appendFileSync(path.join(course, 'parts/lifting/slides.md'), '\nA paragraph an outline does not allow.\n');
    const parent = tempDir();
    const result = await buildTarget(course, 'slides', { out: path.join(parent, 'out') });
    expect(result.ok === false && result.diagnostics.map((d) => d.class)).toEqual(['outline-invalid']);
    expect(fs.readdirSync(parent)).toEqual([]);
  });
});

describe('assembly', () => {
  const course = (parts: Record<string, string>, title = 'T') =>
    writeCourse({
      'course.yaml': [
        `title: ${title}`,
        'parts:',
        ...Object.keys(parts).map((id) => `  - {id: ${id}, kind: reference, format: markdown}`),
        'targets:',
        '  all: {assemble-markdown: {field: reference}}',
      ].join('\n'),
      ...Object.fromEntries(Object.entries(parts).map(([id, text]) => [`parts/${id}/reference.md`, text])),
    });

  const assembled = async (dir: string) => {
    const out = path.join(tempDir(), 'out');
    const result = await buildTarget(dir, 'all', { out });
    expect(result.ok).toBe(true);
    return fs.readFileSync(path.join(out, 'all.md'), 'utf8');
  };

  it('separates parts by one blank line whatever their last line ending', async () => {
    expect(await assembled(course({ a: 'A', b: 'B\n\n\n', c: 'C\r\n', d: 'D\r', e: 'E' }))).toBe(
      '# T\n\nA\n\nB\n\n\n\nC\r\n\nD\r\rE\n',
    );
  });

  it('skips parts whose field is empty', async () => {
    expect(await assembled(course({ a: 'A\n', b: '  \n', c: 'C\n' }))).toBe('# T\n\nA\n\nC\n');
  });

  it('shifts the headings of a part with a level-1 heading down, and leaves other parts as written', async () => {
    expect(await assembled(course({ a: '# Own title\n\n## Sub\n', b: '## Kept\n\nKept  as   is\n' }))).toBe(
      '# T\n\n## Own title\n\n### Sub\n\n## Kept\n\nKept  as   is\n',
    );
  });

  it('reports a reference label two parts define differently only when the later part uses it', async () => {
    const dir = course({
      a: '[x]: https://a.example\n',
      b: 'Unused here.\n\n[x]: https://b.example\n',
      c: 'Uses [it][x].\n\n[x]: https://c.example\n',
    });
    const err = await failure(buildTarget(dir, 'all', { out: tempDir() }));
    expect((err as BuildError).problems).toEqual([
      {
        file: 'parts/c/reference.md',
        line: 3,
        column: 1,
        rule: 'reference-conflict',
        message: expect.stringMatching(/^reference label \[x\] is also defined in parts\/a\/reference.md:1/),
      },
    ]);
  });

  it('refuses a part whose unclosed fence or HTML block would swallow the next part, but the last', async () => {
    const dir = course({
      a: 'A\n\n<!-- open comment\n',
      b: 'B\n\n~~~\nopen fence',
      c: 'C\n\n```\nopen at the very end\n',
    });
    const err = await failure(buildTarget(dir, 'all', { out: tempDir() }));
    expect((err as BuildError).problems.map((p) => [p.file, p.line, p.message.split(' does')[0]])).toEqual([
      ['parts/a/reference.md', 3, 'this HTML block (unclosed?)'],
      ['parts/b/reference.md', 3, 'this code block (unclosed fence?)'],
    ]);
  });

  it('lists a missing image, and an image that is a directory, beside the other problems', async () => {
    const dir = course({
      a: '![gone](img/gone.png)\n\n![dir](img/dir.png)\n\n![here](img/here.png)\n',
      b: 'B\n\n~~~\nopen fence',
      c: 'C\n',
    });
    fs.mkdirSync(path.join(dir, 'parts/a/img/dir.png'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'parts/a/img/here.png'), 'png');
    const out = path.join(tempDir(), 'out');
    const problems = async () => {
      const err = await failure(buildTarget(dir, 'all', { out }));
      expect(err).toBeInstanceOf(BuildError);
      return (err as BuildError).problems.map((p) => [p.file, p.line, p.rule]);
    };
    const missing = [
      ['parts/a/reference.md', 1, 'image-missing'],
      ['parts/a/reference.md', 3, 'image-missing'],
    ];
    expect(await problems()).toEqual([...missing, ['parts/b/reference.md', 3, 'part-unclosed']]);
    fs.writeFileSync(path.join(dir, 'parts/b/reference.md'), 'B\n');
    expect(await problems()).toEqual(missing);
    expect(fs.existsSync(out)).toBe(false);
    expect(fs.readdirSync(path.dirname(out))).toEqual([]);
  });

  it('accepts the same label defined identically in two parts', async () => {
    const dir = course({ a: '[x]: https://same.example\n\n[a][x]\n', b: '[b][x]\n\n[x]: https://same.example\n' });
    expect(await assembled(dir)).toContain('[b][x]');
  });
});
