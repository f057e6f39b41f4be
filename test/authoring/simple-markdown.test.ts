import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMarkdown, parsePart } from '../../authoring/src/markdown.js';
import { parseSimpleMarkdown } from '../../authoring/src/simple-markdown.js';

const TEMPLATE_PARTS = fileURLToPath(new URL('../../authoring/template/parts/', import.meta.url));

/** remark's tree as plain data (no prototypes, no undefined fields), for a strict comparison. */
const remark = (text: string) => JSON.parse(JSON.stringify(parseMarkdown(text)));

describe('parseSimpleMarkdown', () => {
  it('reads the template outlines and an outline like the benchmark course, as remark does', () => {
    const outlines = fs
      .readdirSync(TEMPLATE_PARTS)
      .map((part) => path.join(TEMPLATE_PARTS, part, 'slides.md'))
      .filter((file) => fs.existsSync(file))
      .map((file) => fs.readFileSync(file, 'utf8'));
    outlines.push(
      '## Part 1\n\n### Figure 1\n\n![Figure 1](<img/figure 1.png> "Figure 1")\n\n![Figure 2][fig-p0001-1]\n\n' +
        '[fig-p0001-1]: img/figure%202.png\n',
      '# Title\n## Part\n```widget\nquiz: a.md\n\n  more\n```\n[Ref]: <a b.png> "t"\n![x][REF]\n',
    );
    expect(outlines.length).toBeGreaterThan(4);
    for (const outline of outlines) {
      const text = `${outline}\ncph: the next part starts here\n`;
      const tree = parseSimpleMarkdown(text);
      expect(tree, outline).toBeDefined();
      expect(tree).toEqual(remark(text));
    }
  });

  it('leaves to remark what it does not read', () => {
    for (const text of [
      'no final line ending',
      'a\r\n',
      '## a\tb\n',
      '![a](b)\n![c](d)\n',
      '![a][undefined]\n',
      'text\n[a]: b\n',
      '```widget\nunclosed\n',
      '## *emphasis*\n',
      '- item\n',
      'Setext\n---\n',
    ])
      expect(parseSimpleMarkdown(text), text).toBeUndefined();
  });

  it("gives parsePart remark's tree of the part followed by the stand-in for the next part", () => {
    const content = { property: 'slides', file: 'parts/p/slides.md', extension: 'md', text: '## A\n\n![b](c.png)' };
    const parsed = parsePart(content);
    expect(parsed.tree).toEqual(remark('## A\n\n![b](c.png)\n\ncph: the next part starts here\n'));
    expect(parsed.next).toBe(content.text.length + 2);
  });

  /** Property: whatever it reads, it reads as remark does; and it reads a fair share of outline-like texts. */
  it('makes the same tree as remark for every text it accepts', () => {
    const tricky = [...'abcXYZ019 #!"\'():.-/%é\u00a0*_[]<>&\\`=~|+'];
    const word = fc.array(fc.constantFrom(...tricky), { minLength: 0, maxLength: 8 }).map((cs) => cs.join(''));
    const plain = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 .:é-]{0,8}$/);
    const label = fc.constantFrom('a', 'B', 'fig-1', 'c_d', 'x');
    const destination = fc.oneof(
      word,
      word.map((w) => `<${w}>`),
      fc.constantFrom('img/a.png', '../x/b%20c.png', '<img/with space.png>', 'a(b).png'),
    );
    const title = fc.oneof(
      fc.constant(''),
      word.map((w) => ` "${w}"`),
      fc.constant(" 'single'"),
    );
    const line = fc.oneof(
      fc.constant(''),
      fc.constant(''),
      fc
        .tuple(fc.integer({ min: 1, max: 7 }), fc.constantFrom(' ', '', '  '), fc.oneof(plain, word))
        .map(([n, space, text]) => `${'#'.repeat(n)}${space}${text}`),
      fc.tuple(fc.oneof(plain, word), destination, title).map(([alt, dest, t]) => `![${alt}](${dest}${t})`),
      fc.tuple(fc.oneof(plain, word), label).map(([alt, l]) => `![${alt}][${l}]`),
      fc.tuple(label, destination, title).map(([l, dest, t]) => `[${l}]: ${dest}${t}`),
      fc.constantFrom('```widget', '```widget a b', '```', '````', '   ```', '~~~', '```widget \\x', '```js &amp;'),
      fc.oneof(plain, word),
      fc.constantFrom('- item', '> quote', '---', '===', '    code', '1. one', '***', '<div>', '  indented'),
      fc.constantFrom('    ```', '\u00a0```', '``` ', '```widget`', '#', '## ', '![a]', '![a][]', '[a]:', '[a]: "t"'),
    );
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.boolean(), (lines, standIn) => {
        const text = `${lines.join('\n')}\n${standIn ? '\ncph: the next part starts here\n' : ''}`;
        const tree = parseSimpleMarkdown(text);
        if (tree === undefined) return;
        accepted++;
        expect(tree).toEqual(remark(text));
      }),
      { numRuns: Number(process.env.SIMPLE_MARKDOWN_RUNS ?? 3000) },
    );
    // Too few accepted texts would prove little.
    expect(accepted).toBeGreaterThan(300);
  });
});
