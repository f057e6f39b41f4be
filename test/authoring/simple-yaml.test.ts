import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { parseSimpleYaml } from '../../authoring/src/simple-yaml.js';

const AUTHORING = fileURLToPath(new URL('../../authoring/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** What `yaml` makes of the text, or undefined when it reports an error. */
function yamlData(text: string): unknown {
  const doc = parseDocument(text, { prettyErrors: false });
  return doc.errors.length > 0 ? undefined : doc.toJS();
}

describe('parseSimpleYaml', () => {
  it('reads the template course.yaml, the fixtures valid ones and the benchmark course as yaml does', () => {
    const files = [
      path.join(AUTHORING, 'template', 'course.yaml'),
      ...['assemble-basic', 'assemble-headings', 'build-errors'].map((c) =>
        path.join(FIXTURES, c, 'course', 'course.yaml'),
      ),
    ];
    const texts = files.map((file) => fs.readFileSync(file, 'utf8'));
    const parts = Array.from({ length: 3 }, (_, i) => `  - {id: p${i}, kind: lesson, format: markdown}`);
    texts.push(
      [
        'title: Generated course',
        'parts:',
        ...parts,
        'targets:',
        '  slides: {assemble-markdown: {field: slides}}',
        '',
      ].join('\n'),
    );
    for (const text of texts) {
      const data = parseSimpleYaml(text);
      expect(data, text).toBeDefined();
      expect(data).toEqual(yamlData(text));
    }
  });

  it('leaves to yaml what it does not read', () => {
    for (const text of [
      'a: 1\n',
      'a: true\n',
      'a: b # comment\n',
      'a: "x\\ny"\n',
      'a: b\na: c\n',
      'a:\n- b\n',
      'a: &x b\n',
      'a: |\n  b\n',
      'a: b\n  c\n',
      'a:\tb\n',
      '{a: b}\n',
    ])
      expect(parseSimpleYaml(text), text).toBeUndefined();
  });

  /** Property: whatever it reads, it reads as yaml does, and yaml finds no error in it. */
  it('gives the same data as yaml for every text it accepts', () => {
    const tricky = [...'abXY09 -_.:#,"\'{}[]!&*?|>%@`é\u00a0\u2028'];
    const junk = fc.array(fc.constantFrom(...tricky), { maxLength: 8 }).map((cs) => cs.join(''));
    const word = fc.oneof(
      { arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z0-9._-]{0,6}$/), weight: 10 },
      {
        arbitrary: fc.constantFrom('true', 'False', 'null', 'NULL', 'yes', 'no', 'on', 'y', 'n', 'inf', 'nan'),
        weight: 1,
      },
    );
    // Mostly what the reader accepts, so that the accepted texts are many and varied; some of everything else.
    const scalar = fc.oneof(
      { arbitrary: word, weight: 6 },
      { arbitrary: fc.stringMatching(/^[A-Za-zé][A-Za-z0-9 .,()!?'é/-]{0,10}$/), weight: 4 },
      { arbitrary: fc.stringMatching(/^[A-Za-z0-9 .,:#'é-]{0,8}$/).map((j) => `"${j}"`), weight: 2 },
      { arbitrary: fc.stringMatching(/^[A-Za-z0-9 .,:#"é-]{0,8}$/).map((j) => `'${j}'`), weight: 2 },
      { arbitrary: junk, weight: 1 },
      { arbitrary: junk.map((j) => `"${j}"`), weight: 1 },
      { arbitrary: junk.map((j) => `'${j}'`), weight: 1 },
      {
        arbitrary: fc.constantFrom('1', '0x1F', '1e3', '.inf', '~', '-1', '+1', '0o7', '12:30', '2024-01-01'),
        weight: 1,
      },
    );
    const flow: fc.Arbitrary<string> = fc.letrec<{ flow: string }>((tie) => ({
      flow: fc
        .tuple(
          fc.array(
            fc.tuple(
              word,
              fc.oneof(
                { maxDepth: 2, depthSize: 'small' },
                { arbitrary: word, weight: 8 },
                { arbitrary: junk, weight: 1 },
                { arbitrary: tie('flow'), weight: 2 },
              ),
            ),
            { minLength: 1, maxLength: 3 },
          ),
          fc.constantFrom(', ', ',', ' , '),
        )
        .map(([entries, comma]) => `{${entries.map(([k, v]) => `${k}: ${v}`).join(comma)}}`),
    })).flow;
    const value = fc.oneof({ arbitrary: scalar, weight: 3 }, { arbitrary: flow, weight: 1 });
    type Node = string | { seq: Node[] } | { map: [string, Node][] };
    const node: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
      node: fc.oneof(
        { maxDepth: 3, depthSize: 'small', withCrossShrink: true },
        { arbitrary: value, weight: 3 },
        { arbitrary: fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((seq) => ({ seq })), weight: 1 },
        {
          arbitrary: fc.array(fc.tuple(word, tie('node')), { minLength: 1, maxLength: 3 }).map((map) => ({ map })),
          weight: 1,
        },
      ),
    })).node;
    const render = (n: Node, indent: string, compact: boolean): string[] => {
      if (typeof n === 'string') return [n];
      if ('seq' in n)
        return n.seq.flatMap((item) => {
          const [first = '', ...rest] = render(item, `${indent}  `, true);
          if (typeof item !== 'string' && !('map' in item && compact)) return [`${indent}-`, first, ...rest];
          return [`${indent}- ${first.trimStart()}`, ...rest];
        });
      return n.map.flatMap(([k, v]) =>
        typeof v === 'string' ? [`${indent}${k}: ${v}`] : [`${indent}${k}:`, ...render(v, `${indent}  `, false)],
      );
    };
    const extra = fc.constantFrom(
      '',
      '',
      '',
      '# comment',
      '  # indented comment',
      '---',
      'key: x',
      '  - y',
      '   odd: z',
    );
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(word, node), { minLength: 1, maxLength: 4 }),
        extra,
        fc.nat(6),
        (entries, line, where) => {
          const lines = render({ map: entries }, '', false);
          lines.splice(Math.min(where, lines.length), 0, line);
          const text = `${lines.join('\n')}\n`;
          const data = parseSimpleYaml(text);
          if (data === undefined) return;
          accepted++;
          expect(data, text).toEqual(yamlData(text));
        },
      ),
      { numRuns: Number(process.env.SIMPLE_YAML_RUNS ?? 2000) },
    );
    // Too few accepted texts would prove little.
    expect(accepted).toBeGreaterThan(200);
  });
});
