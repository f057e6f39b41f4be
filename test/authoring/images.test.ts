import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyUrl, imageDestinations, resolveImage } from '../../authoring/index.js';
import { parseMarkdown } from '../../authoring/src/markdown.js';

const destinations = (source: string) =>
  imageDestinations(source, parseMarkdown(source)).map((d) => source.slice(d.start, d.end));

describe('classifyUrl', () => {
  it.each([
    ['img/a.png', 'relative'],
    ['./a.png', 'relative'],
    ['../x/a.png', 'relative'],
    ['café.png', 'relative'],
    ['http://x/a.png', 'remote'],
    ['HTTPS://x/a.png', 'remote'],
    ['//cdn/a.png', 'remote'],
    ['data:image/png;base64,AAAA', 'data'],
    ['/abs/a.png', 'other'],
    ['#frag', 'other'],
    ['', 'other'],
    ['mailto:a@b', 'other'],
    ['file:///a.png', 'other'],
  ])('%s is %s', (url, cls) => {
    expect(classifyUrl(url)).toBe(cls);
  });
});

describe('imageDestinations', () => {
  it('finds inline destinations, with and without angle brackets and titles', () => {
    expect(destinations('![a](x.png) ![b](<y z.png> "t") ![c](w.png \'t\') ![d](v.png (t))')).toEqual([
      'x.png',
      'y z.png',
      'w.png',
      'v.png',
    ]);
  });

  it('finds the destination after labels holding brackets, code and escapes', () => {
    expect(destinations('![a [b] c](x.png)')).toEqual(['x.png']);
    expect(destinations('![`](q)`](x.png)')).toEqual(['x.png']);
    expect(destinations('![a\\](q)](x.png)')).toEqual(['x.png']);
    expect(destinations('![a](x(1).png)')).toEqual(['x(1).png']);
    expect(destinations('![a](x.png "](q)")')).toEqual(['x.png']);
  });

  it('finds definitions used by images only, first definition of a label only', () => {
    const source = '![a][one] [link][two]\n\n[one]: a.png\n[two]: b.png\n[ONE]: c.png\n';
    expect(destinations(source)).toEqual(['a.png']);
  });

  it('finds destinations on the next line, also inside block quotes', () => {
    expect(destinations('![a](\n  x.png)')).toEqual(['x.png']);
    expect(destinations('> ![a](\n> x.png "t")')).toEqual(['x.png']);
    expect(destinations('![a][r]\n\n> [r]:\n>   y.png\n')).toEqual(['y.png']);
  });

  it('ignores image syntax in code and escaped brackets', () => {
    expect(destinations('`![a](x.png)` \\![b](y.png)\n\n```\n![c](z.png)\n```\n')).toEqual([]);
  });
});

describe('resolveImage', () => {
  it('re-bases on the course root and normalizes dot segments', () => {
    expect(resolveImage('parts/p', 'img/a.png', 'img/a.png')).toEqual({
      rewritten: 'parts/p/img/a.png',
      path: 'parts/p/img/a.png',
    });
    expect(resolveImage('parts/p', './img/../a.png', './img/../a.png')).toEqual({
      rewritten: 'parts/p/a.png',
      path: 'parts/p/a.png',
    });
    expect(resolveImage('parts/p', '../../shared/a.png', '../../shared/a.png')).toEqual({
      rewritten: 'shared/a.png',
      path: 'shared/a.png',
    });
  });

  it('looks files up percent-decoded, keeps the author encoding, query and fragment', () => {
    expect(resolveImage('parts/p', 'a%20b.png?v=1#x', 'a%20b.png?v=1#x')).toEqual({
      rewritten: 'parts/p/a%20b.png?v=1#x',
      path: 'parts/p/a b.png',
    });
    expect(resolveImage('parts/p', '100%.png', '100%.png')).toEqual({
      rewritten: 'parts/p/100%.png',
      path: 'parts/p/100%.png',
    });
    expect(resolveImage('parts/p', 'a&amp;b.png', 'a&b.png')).toEqual({
      rewritten: 'parts/p/a&amp;b.png',
      path: 'parts/p/a&b.png',
    });
  });

  it('refuses a path out of the course', () => {
    expect(resolveImage('parts/p', '../../../x.png', '../../../x.png')).toEqual({
      error: expect.stringMatching(/leaves the course/),
    });
  });
});

/** Property: splicing the re-based destination into any image gives mdast the re-based url. */
describe('splicing keeps markdown meaning', () => {
  let skipped = 0;
  const segment = fc
    .stringMatching(/^[A-Za-z0-9é図 _()-]{1,8}$/)
    .filter((s) => s.trim() === s && s !== '.' && s !== '..');
  const title = fc.option(fc.stringMatching(/^[A-Za-z0-9 ()']{0,10}$/), { nil: undefined });
  const alt = fc.stringMatching(/^[A-Za-z0-9 [\]`]{0,10}$/);

  it('for inline images and reference definitions', () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        alt,
        title,
        fc.boolean(),
        fc.boolean(),
        (segments, altText, titleText, reference, crlf) => {
          const url = segments.join('/');
          const needsAngle = /[ ()]/.test(url);
          const dest = needsAngle ? `<${url}>` : url;
          const titlePart = titleText === undefined ? '' : ` "${titleText}"`;
          const eol = crlf ? '\r\n' : '\n';
          const safeAlt = balanced(altText);
          const source = reference
            ? `![${safeAlt}][ref]${eol}${eol}[ref]: ${dest}${titlePart}${eol}`
            : `Text ![${safeAlt}](${dest}${titlePart}) after.${eol}`;
          const tree = parseMarkdown(source);
          const found = imageDestinations(source, tree);
          if (found.length !== 1) {
            skipped++; // the generator made something that is not one image (an odd alt)
            return;
          }
          const d = found[0]!;
          expect(d.url).toBe(url);
          const resolved = resolveImage('parts/p', source.slice(d.start, d.end), d.url);
          if ('error' in resolved) throw new Error(resolved.error);
          const spliced = source.slice(0, d.start) + resolved.rewritten + source.slice(d.end);
          const again = imageDestinations(spliced, parseMarkdown(spliced));
          expect(again.map((x) => x.url)).toEqual([`parts/p/${url}`]);
          expect(spliced.replace(`parts/p/${url}`, url)).toBe(source);
        },
      ),
      { numRuns: 300 },
    );
    // Most generated cases must be real images, or the property proves little.
    expect(skipped).toBeLessThan(150);
  });
});

/** Alt text with balanced brackets and code spans, so the generated image stays one image. */
function balanced(alt: string): string {
  const ticks = (alt.match(/`/g) ?? []).length;
  let text = ticks % 2 === 0 ? alt : `${alt}\``;
  let depth = 0;
  for (const c of text) {
    if (c === '[') depth++;
    if (c === ']') depth = Math.max(0, depth - 1);
  }
  text = text.replace(/^([^[]*)\]/, '$1');
  return text + ']'.repeat(depth);
}
