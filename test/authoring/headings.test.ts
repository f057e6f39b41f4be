/** One level-1 heading: a part with a `#` heading of its own has its headings shifted, by splicing markers only. */
import fc from 'fast-check';
import type { Heading } from 'mdast';
import { visit } from 'unist-util-visit';
import { describe, expect, it } from 'vitest';
import { headingShiftEdits } from '../../authoring/index.js';
import { parseMarkdown } from '../../authoring/src/markdown.js';
import { applyEdits } from '../../authoring/src/splice.js';

const shifted = (source: string) => applyEdits(source, headingShiftEdits(source, parseMarkdown(source)));
const depths = (source: string) => {
  const out: number[] = [];
  visit(parseMarkdown(source), 'heading', (h: Heading) => void out.push(h.depth));
  return out;
};

describe('heading shift', () => {
  it('adds one # to every ATX heading, capped at 6', () => {
    expect(shifted('# A #\n\n## B\n\n  ### C\n\n##### E\n\n###### F\n')).toBe(
      '## A #\n\n### B\n\n  #### C\n\n###### E\n\n###### F\n',
    );
  });

  it('turns a setext level 1 into level 2 by its underline, and a setext level 2 into an ATX level 3', () => {
    expect(shifted('Title\n=====\n\nTwo\nlines\n---\n')).toBe('Title\n-----\n\n### Two lines\n');
    expect(shifted('# T\r\n\r\nSub\r\n---\r\n\r\ntext\r\n')).toBe('## T\r\n\r\n### Sub\r\n\r\ntext\r\n');
  });

  it('shifts headings in block quotes and list items, and nothing in code', () => {
    expect(shifted('# T\n\n> ## Q\n> Setext\n> ---\n\n- # L\n\n```\n# code\n```\n')).toBe(
      '## T\n\n> ### Q\n> ### Setext\n\n- ## L\n\n```\n# code\n```\n',
    );
  });

  it('leaves a part without a level-1 heading byte for byte', () => {
    for (const source of [
      '## A\n\nB\n---\n',
      '### x\n\n    # indented code\n',
      'text # not a heading\n',
      '\\# escaped\n',
    ]) {
      expect(headingShiftEdits(source, parseMarkdown(source))).toEqual([]);
    }
  });

  it('keeps the hierarchy and the text: depths become min(d + 1, 6), no level 1 is left', () => {
    const heading = fc.record({
      depth: fc.integer({ min: 1, max: 6 }),
      setext: fc.boolean(),
      text: fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,12}[A-Za-z]$/),
    });
    fc.assert(
      fc.property(fc.array(heading, { minLength: 1, maxLength: 8 }), fc.constantFrom('\n', '\r\n'), (headings, eol) => {
        const source = headings
          .map(({ depth, setext, text }) =>
            setext && depth <= 2 ? `${text}${eol}${depth === 1 ? '===' : '---'}` : `${'#'.repeat(depth)} ${text}`,
          )
          .join(`${eol}${eol}`);
        const before = depths(source);
        const after = depths(shifted(source));
        if (!before.includes(1)) expect(after).toEqual(before);
        else {
          expect(after).toEqual(before.map((d) => Math.min(d + 1, 6)));
          // Only markers and the spacing around them change: the words stay, in order.
          const words = (text: string) => text.replace(/[#=\-\s]/g, '');
          expect(words(shifted(source))).toBe(words(source));
        }
      }),
    );
  });
});
