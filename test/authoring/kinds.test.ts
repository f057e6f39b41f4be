import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  compileKind,
  CONTENT_KEYWORD,
  contentExtension,
  COURSE_SCHEMA_FILE,
  createKindAjv,
  KINDS_DIR,
  KindSchemaError,
  loadKinds,
} from '../../authoring/index.js';

const shipped = fs
  .readdirSync(KINDS_DIR)
  .filter((f) => f.endsWith('.schema.json'))
  .map((f) => f.slice(0, -'.schema.json'.length))
  .sort();

describe('the course schema', () => {
  // cph compiles it without checking it against the meta-schema at run time: this is that check.
  it('is a valid draft-07 schema', () => {
    const ajv = new Ajv({ strict: true });
    expect(ajv.validateSchema(JSON.parse(fs.readFileSync(COURSE_SCHEMA_FILE, 'utf8'))), ajv.errorsText()).toBe(true);
  });
});

describe('shipped kinds', () => {
  it('are exactly the five of the design', () => {
    expect(shipped).toEqual(['assessment', 'lab', 'lesson', 'reference', 'sop']);
  });

  // cph compiles them without checking them against the meta-schema at run time: this is that check.
  it('are valid draft-07 schemas, with valid markers', () => {
    const ajv = createKindAjv();
    for (const name of shipped) {
      const schema = JSON.parse(fs.readFileSync(path.join(KINDS_DIR, `${name}.schema.json`), 'utf8'));
      expect(ajv.validateSchema(schema), `${name}: ${ajv.errorsText()}`).toBe(true);
    }
  });

  it('all load, compiled once per directory', () => {
    const kinds = loadKinds();
    expect([...kinds.keys()]).toEqual(shipped);
    expect(loadKinds()).toBe(kinds);
    expect(loadKinds(path.join(KINDS_DIR, '.'))).toBe(kinds);
  });

  for (const name of shipped) {
    it(`${name}: object schema, additionalProperties false, string content properties`, () => {
      const kind = loadKinds().get(name)!;
      const schema = JSON.parse(fs.readFileSync(path.join(KINDS_DIR, `${name}.schema.json`), 'utf8'));
      expect(schema.type).toBe('object');
      expect(schema.additionalProperties).toBe(false);
      for (const sub of Object.values(schema.properties) as { type: string }[]) expect(sub.type).toBe('string');
      const expected =
        name === 'reference'
          ? [{ name, marker: true, required: true }]
          : [
              { name, marker: true, required: true },
              { name: 'slides', marker: 'md', required: false },
              { name: 'transcript', marker: 'md', required: false },
            ];
      expect(kind.properties).toEqual(expected);
      expect(kind.validate({ [name]: 'text' })).toBe(true);
      expect(kind.validate({})).toBe(false);
      expect(kind.validate({ [name]: 'text', stray: '' })).toBe(false);
    });
  }

  it('resolve the marker per format', () => {
    expect(contentExtension(true, 'typeset')).toBe('typ');
    expect(contentExtension(true, 'markdown')).toBe('md');
    expect(contentExtension('md', 'typeset')).toBe('md');
  });
});

describe('the x-cph-content keyword', () => {
  const schemaWith = (marker: unknown) => ({
    type: 'object',
    properties: { demo: { type: 'string', [CONTENT_KEYWORD]: marker } },
    required: ['demo'],
    additionalProperties: false,
  });

  it('accepts true and extension strings, in strict mode', () => {
    const ajv = createKindAjv();
    expect(ajv.opts.strict).toBe(true);
    for (const marker of [true, 'md', 'typ', 'csv', 'mp4']) expect(() => ajv.compile(schemaWith(marker))).not.toThrow();
  });

  it('rejects a marker that is neither true nor an extension', () => {
    for (const marker of [false, '', 'MD', '.md', 'm d', 3, null, ['md'], { ext: 'md' }]) {
      expect(() => createKindAjv().compile(schemaWith(marker)), JSON.stringify(marker)).toThrow(/x-cph-content/);
    }
  });

  it('is the only unknown keyword strict mode lets through', () => {
    expect(() => createKindAjv().compile({ type: 'string', 'x-other': true })).toThrow(/unknown keyword/);
  });
});

describe('compileKind', () => {
  const ok = {
    type: 'object',
    properties: { demo: { type: 'string', [CONTENT_KEYWORD]: true } },
    required: ['demo'],
    additionalProperties: false,
  };

  it('compiles a well-formed kind', () => {
    expect(compileKind('demo', ok).properties).toEqual([{ name: 'demo', marker: true, required: true }]);
  });

  it.each([
    ['a bad marker', { ...ok, properties: { demo: { type: 'string', [CONTENT_KEYWORD]: 'MD' } } }, /x-cph-content/],
    ['additionalProperties not false', { ...ok, additionalProperties: true }, /additionalProperties/],
    [
      'a property without a marker',
      { ...ok, properties: { ...ok.properties, note: { type: 'string' } } },
      /no "x-cph-content" marker/,
    ],
    [
      'a non-string property',
      { ...ok, properties: { demo: { type: 'number', [CONTENT_KEYWORD]: true } } },
      /"type": "string"/,
    ],
    [
      'no main property',
      { ...ok, properties: { other: { type: 'string', [CONTENT_KEYWORD]: true } }, required: [] },
      /main property/,
    ],
    ['required naming no property', { ...ok, required: ['demo', 'ghost'] }, /ghost/],
    ['an unknown keyword', { ...ok, 'x-unknown': 1 }, /unknown keyword/],
  ])('rejects %s', (_label, schema, message) => {
    expect(() => compileKind('demo', schema)).toThrow(KindSchemaError);
    expect(() => compileKind('demo', schema)).toThrow(message);
  });

  it('rejects a bad kind name', () => {
    expect(() => compileKind('Demo Kind', ok)).toThrow(/kind name/);
  });
});
