/**
 * The precompiled validators of cph's own schemas (authoring/generated/): current with the schemas,
 * used for them, judging exactly as validators compiled at run time do, and never used for a schema
 * text they were not made from.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COURSE_SCHEMA_FILE, courseAjv } from '../../authoring/src/course.js';
import { KINDS_DIR, kindAjv, kindFiles, loadKinds } from '../../authoring/src/kinds.js';
import { precompiledCourseValidator, precompiledKindValidator } from '../../authoring/src/precompiled.js';
import { GENERATED_DIR, generatedValidators } from '../../authoring/scripts/generate-validators.js';

const read = (file: string) => fs.readFileSync(file, 'utf8');

describe('authoring/generated/', () => {
  it('is what the generator makes from the schemas today (npm run generate -w @agent-hub/cph)', () => {
    const generated = generatedValidators();
    expect([...generated.keys()].sort()).toEqual(fs.readdirSync(GENERATED_DIR).sort());
    for (const [name, content] of generated) expect(read(path.join(GENERATED_DIR, name)), name).toBe(content);
  });
});

/** Part objects that match a kind, and ones that break it in each way a part can. */
function partsFor(kind: string): unknown[] {
  return [
    { [kind]: 'text' },
    { [kind]: '' },
    {},
    { [kind]: 'text', stray: 'x' },
    { [kind]: 42 },
    { slides: 'only slides' },
    'not an object',
    null,
  ];
}

describe('shipped kinds', () => {
  for (const { name, file } of kindFiles(KINDS_DIR)) {
    it(`${name}: loads with its precompiled validator, which judges as a run-time compiled one`, () => {
      const precompiled = precompiledKindValidator(name, read(file));
      expect(precompiled).toBeTypeOf('function');
      expect(loadKinds().get(name)!.validate).toBe(precompiled);

      const compiled = kindAjv(false).compile(JSON.parse(read(file)));
      for (const part of partsFor(name)) {
        expect(precompiled!(part), JSON.stringify(part)).toBe(compiled(part));
        expect(precompiled!.errors ?? null, JSON.stringify(part)).toEqual(compiled.errors ?? null);
      }
    });
  }

  it('a schema text other than the one compiled gets no precompiled validator', () => {
    const [{ name, file }] = kindFiles(KINDS_DIR) as [{ name: string; file: string }];
    const edited = read(file).replace('"additionalProperties": false', '"additionalProperties": true');
    expect(edited).not.toBe(read(file));
    expect(precompiledKindValidator(name, edited)).toBeUndefined();
    expect(precompiledKindValidator('not-a-kind', read(file))).toBeUndefined();
  });
});

describe('the course schema', () => {
  it('has a precompiled validator that judges as a run-time compiled one, errors and all', () => {
    const text = read(COURSE_SCHEMA_FILE);
    const precompiled = precompiledCourseValidator(text)!;
    expect(precompiled).toBeTypeOf('function');
    expect(precompiledCourseValidator(`${text} `)).toBeUndefined();

    const compiled = courseAjv().compile(JSON.parse(text));
    const courses: unknown[] = [
      { title: 'T', parts: [{ id: 'a', kind: 'lesson', format: 'markdown' }] },
      { title: 'T', parts: [{ id: 'a', kind: 'lesson', format: 'markdown' }], targets: { s: { compile: 'typeset' } } },
      { title: 'T', parts: [], targets: { 'bad name!': { 'assemble-markdown': {} } } },
      { titel: 'T', parts: [{ id: 'a', kind: 'lesson', format: 'pdf', extra: 1 }] },
      { title: '  ', parts: 'none' },
      [],
    ];
    for (const course of courses) {
      expect(precompiled(course), JSON.stringify(course)).toBe(compiled(course));
      // verbose errors: the schema and data they carry are equal, not the same objects.
      expect(precompiled.errors ?? null, JSON.stringify(course)).toEqual(compiled.errors ?? null);
    }
  });
});
