/**
 * A line-by-line reader for the markdown a slide outline is made of: ATX headings, paragraphs of
 * one image, link reference definitions and fenced code blocks (plus one-line text paragraphs, the
 * stand-in for the next part among them), each in its plainest form. It makes exactly the mdast
 * remark-parse makes of such a text, positions included, and gives up (undefined) at the first
 * line it does not know, leaving the whole text to remark.
 *
 * Why: a build parses every part's slides, and remark spends ~0.3 ms on each small file, most of
 * a large course's build; a valid outline holds nothing else, so it is read here in microseconds.
 * What is accepted is deliberately narrow (no escapes, character references, emphasis, code spans,
 * HTML, indentation, tabs or CR): there the CommonMark reading is the literal one. The property
 * test in test/authoring/simple-markdown.test.ts holds the two parsers to the same trees.
 */
import type { Code, Definition, Heading, Image, ImageReference, Paragraph, Root, RootContent, Text } from 'mdast';

type Point = { line: number; column: number; offset: number };

/** Text that means itself: none of the characters that start an inline construct, no control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: remark turns NUL into U+FFFD; no control is plain text here
const PLAIN = /^[^\\&`*_[\]<>\u0000-\u001f\u007f]+$/;
const ATX = /^(#{1,6}) (.*)$/;
/** `![alt](dest)`, `![alt](dest "title")`, with `<dest>` too, or `![alt][label]`. */
const IMAGE = /^!\[([^\]]+)\](?:\((?:<([^<>]+)>|([^\s<>()]+))(?: "([^"]*)")?\)|\[([A-Za-z0-9_-]+)\])$/;
/** `[label]: dest`, `[label]: <dest>`, either with ` "title"`. */
const DEFINITION = /^\[([A-Za-z0-9_-]+)\]: (?:<([^<>]+)>|([^\s<>()]+))(?: "([^"]*)")?$/;
const FENCE = /^```([a-z][a-z0-9-]*)(?: ([^`\s](?:[^`]*[^`\s])?))?$/;
/** A line that may open or close a fence, or make a code line something else. */
const FENCE_LIKE = /^ {0,3}(?:```|~~~)/;
const LETTER = /^[A-Za-z]/;

/** The mdast of `text` (which must end with a line ending), or undefined when it is not all simple lines. */
export function parseSimpleMarkdown(text: string): Root | undefined {
  if (!text.endsWith('\n') || text.includes('\r') || text.includes('\t')) return undefined;
  const lines = text.slice(0, -1).split('\n');
  const starts: number[] = [];
  // One more start than lines: the end of the text, where the root ends.
  for (let i = 0, offset = 0; i <= lines.length; offset += (lines[i]?.length ?? 0) + 1, i++) starts.push(offset);
  const at = (i: number, column: number): Point => ({ line: i + 1, column: column + 1, offset: starts[i]! + column });
  const span = (i: number, from: number, j: number, to: number) => ({ start: at(i, from), end: at(j, to) });

  // A reference image is an image only when its label is defined, before or after it: checked at the end.
  const defined = new Set<string>();
  const referenced = new Set<string>();

  const children: RootContent[] = [];
  /** What the previous line was: a paragraph must be followed by a blank line here, a definition may not follow one. */
  let previous: 'blank' | 'heading' | 'definition' | 'paragraph' | 'code' = 'blank';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') {
      previous = 'blank';
      continue;
    }
    if (previous === 'paragraph') return undefined;
    const end = line.length;
    const heading = ATX.exec(line);
    if (heading) {
      const value = heading[2]!;
      if (!PLAIN.test(value) || value.includes('#') || value.trim() !== value) return undefined;
      const textNode: Text = { type: 'text', value, position: span(i, heading[1]!.length + 1, i, end) };
      const node: Heading = {
        type: 'heading',
        depth: heading[1]!.length as Heading['depth'],
        children: [textNode],
        position: span(i, 0, i, end),
      };
      children.push(node);
      previous = 'heading';
      continue;
    }
    const image = IMAGE.exec(line);
    if (image) {
      const [, alt, angled, bare, title, label] = image;
      if (!PLAIN.test(alt!) || alt!.trim() !== alt || (title !== undefined && !isPlainOrEmpty(title))) return undefined;
      const url = angled ?? bare;
      if (url !== undefined && !isPlainOrEmpty(url)) return undefined;
      let node: Image | ImageReference;
      const position = span(i, 0, i, end);
      if (label === undefined) node = { type: 'image', title: title || null, url: url!, alt: alt!, position };
      else {
        referenced.add(label.toLowerCase());
        node = {
          type: 'imageReference',
          alt: alt!,
          position,
          label,
          identifier: label.toLowerCase(),
          referenceType: 'full',
        };
      }
      const paragraph: Paragraph = { type: 'paragraph', children: [node], position: span(i, 0, i, end) };
      children.push(paragraph);
      previous = 'paragraph';
      continue;
    }
    const definition = DEFINITION.exec(line);
    if (definition) {
      const [, label, angled, bare, title] = definition;
      const url = (angled ?? bare)!;
      if (!isPlainOrEmpty(url) || (title !== undefined && !isPlainOrEmpty(title))) return undefined;
      const node: Definition = {
        type: 'definition',
        identifier: label!.toLowerCase(),
        label: label!,
        title: title || null,
        url,
        position: span(i, 0, i, end),
      };
      children.push(node);
      defined.add(node.identifier);
      previous = 'definition';
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      if (fence[2] !== undefined && !PLAIN.test(fence[2])) return undefined;
      let close = i + 1;
      while (close < lines.length && lines[close] !== '```') {
        if (FENCE_LIKE.test(lines[close]!)) return undefined;
        close++;
      }
      // An unclosed fence runs to the end: remark says where, and what it swallows.
      if (close === lines.length) return undefined;
      const node: Code = {
        type: 'code',
        lang: fence[1]!,
        meta: fence[2] ?? null,
        value: lines.slice(i + 1, close).join('\n'),
        position: span(i, 0, close, 3),
      };
      children.push(node);
      i = close;
      previous = 'code';
      continue;
    }
    if (LETTER.test(line) && PLAIN.test(line) && line.trimEnd() === line) {
      const textNode: Text = { type: 'text', value: line, position: span(i, 0, i, end) };
      children.push({ type: 'paragraph', children: [textNode], position: span(i, 0, i, end) });
      previous = 'paragraph';
      continue;
    }
    return undefined;
  }
  for (const label of referenced) if (!defined.has(label)) return undefined;
  return { type: 'root', children, position: span(0, 0, lines.length, 0) };
}

function isPlainOrEmpty(text: string): boolean {
  return text === '' || PLAIN.test(text);
}
