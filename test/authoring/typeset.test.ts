import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BuildError,
  buildAllTypeset,
  buildTarget,
  concatenateTypeset,
  loadCourse,
  sourceLocation,
} from '../../authoring/index.js';
import { fixtureCourse, removeTempDirs, tempDir, writeCourse } from './support.js';

afterAll(removeTempDirs);

const typesetCourse = (parts: Record<string, string>) =>
  writeCourse({
    'course.yaml': [
      'title: T',
      'parts:',
      ...Object.keys(parts).map((id) => `  - {id: ${id}, kind: reference, format: typeset}`),
      'targets:',
      '  pdf: {compile: typeset}',
    ].join('\n'),
    ...Object.fromEntries(Object.entries(parts).map(([id, text]) => [`parts/${id}/reference.typ`, text])),
  });

const buildError = async (dir: string, target = 'pdf'): Promise<BuildError> => {
  const err = await buildTarget(dir, target, { out: path.join(tempDir(), 'out') }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BuildError);
  return err as BuildError;
};

describe('typeset targets', () => {
  it('compile the typeset parts of a tiny course to PDF, one file per compile target', async () => {
    const out = path.join(tempDir(), 'out');
    const result = await buildAllTypeset(fixtureCourse('typeset-basic'), { out });
    expect(result.ok && result.outputs.map((o) => [o.target, o.parts])).toEqual([
      ['handout', 2],
      ['print', 2],
    ]);
    for (const name of ['handout.pdf', 'print.pdf'])
      expect(fs.readFileSync(path.join(out, name)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(fs.readdirSync(out).sort()).toEqual(['handout.pdf', 'print.pdf']);
  });

  it('concatenate the main content of typeset parts in course order, mapping lines back', () => {
    const source = concatenateTypeset(loadCourse(fixtureCourse('typeset-basic')));
    expect(source.text).toBe(
      '#set document(title: "Typeset \\"quoted\\" course")\n' +
        '= Safety\n\n#let rule(body) = strong(body)\n#rule[Look before you lift.]\n\n' +
        '= Drill\n\n#rule[Defined in the safety part, used here.]\n\n' +
        '#image("/parts/drill/img/dot.svg", width: 1cm)\n\n',
    );
    expect(sourceLocation(source, 1)).toEqual({ file: 'course.yaml', line: 1 });
    expect(sourceLocation(source, 2)).toEqual({ file: 'parts/safety/sop.typ', line: 1 });
    expect(sourceLocation(source, 5)).toEqual({ file: 'parts/safety/sop.typ', line: 4 });
    expect(sourceLocation(source, 6)).toEqual({ file: 'parts/safety/sop.typ', line: 4 });
    expect(sourceLocation(source, 0)).toBeUndefined();
    expect(sourceLocation(source, 7)).toEqual({ file: 'parts/drill/lab.typ', line: 1 });
  });

  it('report a Typst error with the part file and line (CRLF part)', async () => {
    const err = await buildError(fixtureCourse('typeset-error'), 'handout');
    expect(err.problems).toEqual([
      {
        file: 'parts/drill/lab.typ',
        line: 4,
        column: 2,
        rule: 'typst-error',
        message: expect.stringMatching(/^typst error: unknown variable: undefined-function/),
      },
    ]);
  });

  it('map errors in any part, including a part without a final newline', async () => {
    const err = await buildError(typesetCourse({ one: 'One', two: 'Two\n\n#let x = 1 + "a"\n#x' }));
    expect(err.problems).toEqual([
      {
        file: 'parts/two/reference.typ',
        line: 3,
        column: 10,
        rule: 'typst-error',
        message: 'typst error: cannot add integer and string',
      },
    ]);
  });

  it('report an unclosed delimiter in the part that opens it', async () => {
    const err = await buildError(typesetCourse({ one: 'One\n#text[open\n', two: 'Two\n' }));
    expect(err.problems).toEqual([
      {
        file: 'parts/one/reference.typ',
        line: 2,
        column: 6,
        rule: 'typst-error',
        message: 'typst error: unclosed delimiter',
      },
    ]);
  });

  it('report an error in an included file with that file and line', async () => {
    // Helper files live in a subdirectory: top-level .typ files of a part are content.
    const dir = typesetCourse({ one: '#include "/parts/one/lib/extra.typ"\n' });
    fs.mkdirSync(path.join(dir, 'parts/one/lib'));
    fs.writeFileSync(path.join(dir, 'parts/one/lib/extra.typ'), 'fine\n#nope\n');
    const err = await buildError(dir);
    expect(err.problems[0]).toEqual({
      file: 'parts/one/lib/extra.typ',
      line: 2,
      column: 2,
      rule: 'typst-error',
      message: 'typst error: unknown variable: nope',
    });
  });

  it('cannot read files outside the course', async () => {
    const err = await buildError(typesetCourse({ one: '#read("/../../etc/hostname")\n' }));
    expect(err.problems[0]).toMatchObject({ file: 'parts/one/reference.typ', line: 1 });
  });

  it('pass Typst warnings through without failing', async () => {
    const out = path.join(tempDir(), 'out');
    const result = await buildTarget(typesetCourse({ one: '#set text(font: "No Such Font")\nHello\n' }), 'pdf', {
      out,
    });
    expect(result.ok && result.outputs[0]!.warnings).toEqual([
      {
        file: 'parts/one/reference.typ',
        line: 1,
        column: 17,
        rule: 'typst-warning',
        severity: 'warning',
        message: expect.stringMatching(/^typst warning: unknown font family/),
      },
    ]);
    expect(fs.existsSync(path.join(out, 'pdf.pdf'))).toBe(true);
  });
});
