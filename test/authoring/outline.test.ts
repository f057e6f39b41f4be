import { describe, expect, it } from 'vitest';
import { checkOutline } from '../../authoring/index.js';

const lines = (markdown: string) => checkOutline(markdown).map((p) => p.line);

describe('checkOutline', () => {
  it('accepts headings of level 2 and 3, image paragraphs, widget blocks and definitions', () => {
    const outline = [
      '## Part',
      '',
      '### Section',
      '',
      '![a](a.png) ![b][b]',
      '![c](c.png)  ',
      '![d](d.png)',
      '',
      '```widget',
      'kind: quiz',
      '```',
      '',
      '~~~widget poll',
      '~~~',
      '',
      '[b]: b.png',
      '',
      '',
      '## Another part',
    ].join('\n');
    expect(checkOutline(outline)).toEqual([]);
  });

  it('accepts an empty outline and CRLF line endings', () => {
    expect(checkOutline('')).toEqual([]);
    expect(checkOutline('## A\r\n\r\n![x](x.png)\r\n')).toEqual([]);
  });

  it('wants the first heading at level 2', () => {
    expect(checkOutline('![x](x.png)\n\n### Section\n\n## Part\n')).toEqual([
      { line: 3, column: 1, message: expect.stringMatching(/first heading .* level-2/) },
    ]);
  });

  it('refuses other heading levels, text, lists, quotes, other code, rules and HTML', () => {
    const outline = [
      '## Part',
      '# One',
      '#### Four',
      'text',
      '',
      '- item',
      '',
      '> quote',
      '',
      '```js',
      'x',
      '```',
      '',
      '    indented',
      '',
      '***',
      '',
      '<p>x</p>',
      '',
      'Setext',
      '======',
    ].join('\n');
    expect(lines(outline)).toEqual([2, 3, 4, 6, 8, 10, 14, 16, 18, 20]);
  });

  it('refuses a paragraph mixing images and text, and linked images', () => {
    expect(lines('## P\n\n![a](a.png) caption\n\n[![a](a.png)](https://x)\n')).toEqual([3, 5]);
  });
});
