/**
 * Golden fixtures: `fixtures/<case>/course/` is a course, `fixtures/<case>/expected/` what cph
 * makes of it:
 *   diagnostics.json     the check's diagnostics (files relative to the course root), as `cph check --json`
 *   <target>/            the whole build root after `cph build --target <target>`, byte for byte
 *   <target>.error.txt   the build's errors as the report `cph build` prints; nothing written
 * UPDATE_GOLDEN=1 rewrites the expected files from the current output (review the diff!).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildTarget,
  BuildError,
  checkCourse,
  diagnosticsToJson,
  formatMessages,
  problemMessage,
} from '../../authoring/index.js';
import { FIXTURES, readTree, removeTempDirs, tempDir } from './support.js';

const UPDATE = process.env.UPDATE_GOLDEN === '1';

afterAll(removeTempDirs);

const cases = fs
  .readdirSync(FIXTURES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

it('has fixtures, each with a course and expected output', () => {
  expect(cases.length).toBeGreaterThanOrEqual(10);
  for (const name of cases) {
    expect(fs.existsSync(path.join(FIXTURES, name, 'course', 'course.yaml')), name).toBe(true);
    expect(fs.readdirSync(path.join(FIXTURES, name, 'expected')).length, name).toBeGreaterThan(0);
  }
});

for (const name of cases) {
  const course = path.join(FIXTURES, name, 'course');
  const expectedDir = path.join(FIXTURES, name, 'expected');
  const entries = fs.existsSync(expectedDir) ? fs.readdirSync(expectedDir, { withFileTypes: true }) : [];

  describe(name, () => {
    for (const entry of entries) {
      const expected = path.join(expectedDir, entry.name);

      if (entry.name === 'diagnostics.json') {
        it('check reports the expected diagnostics', () => {
          const actual = `${JSON.stringify(JSON.parse(diagnosticsToJson(checkCourse(course).diagnostics)), null, 2)}\n`;
          if (UPDATE) fs.writeFileSync(expected, actual);
          expect(actual).toBe(fs.readFileSync(expected, 'utf8'));
        });
      } else if (entry.isDirectory()) {
        const target = entry.name;
        it(`build --target ${target} writes the expected build root`, async () => {
          expect(checkCourse(course).diagnostics).toEqual([]);
          const out = path.join(tempDir(), 'build');
          const result = await buildTarget(course, target, { out });
          expect(result.ok).toBe(true);
          if (UPDATE) {
            fs.rmSync(expected, { recursive: true });
            fs.cpSync(out, expected, { recursive: true });
          }
          const actual = readTree(out);
          const wanted = readTree(expected);
          expect([...actual.keys()]).toEqual([...wanted.keys()]);
          for (const [file, bytes] of wanted)
            expect(actual.get(file)?.toString('latin1'), file).toBe(bytes.toString('latin1'));
        });
      } else if (entry.name.endsWith('.error.txt')) {
        const target = entry.name.slice(0, -'.error.txt'.length);
        it(`build --target ${target} fails with the expected errors and writes nothing`, async () => {
          const parent = tempDir();
          const out = path.join(parent, 'build');
          const error = await buildTarget(course, target, { out }).then(
            () => undefined,
            (err: unknown) => err,
          );
          expect(error).toBeInstanceOf(BuildError);
          const actual = `${formatMessages((error as BuildError).problems.map((p) => problemMessage(p)))}\n`;
          if (UPDATE) fs.writeFileSync(expected, actual);
          expect(actual).toBe(fs.readFileSync(expected, 'utf8'));
          expect(fs.readdirSync(parent)).toEqual([]);
        });
      }
    }
  });
}
