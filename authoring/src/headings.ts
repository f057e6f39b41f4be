/**
 * One level-1 heading per assembled document: the course title. A part whose text holds a
 * level-1 heading of its own has every heading shifted one level down (capped at 6, so the
 * hierarchy is kept), by editing only the heading markers at their mdast positions:
 *
 * - ATX (`# Title`): one more `#` before the first;
 * - setext level 1 (`Title` over `===`): the underline becomes `---`, the same length;
 * - setext level 2 (`Title` over `---`): setext has no level 3, so it becomes `### Title` on
 *   one line (a multi-line heading's lines are joined by a space) and the underline goes.
 *
 * A part without a level-1 heading (every valid slide outline) is left byte for byte.
 */
import type { Heading, Root } from 'mdast';
import type { Edit } from './splice.js';
import { walk } from './walk.js';

const MAX_DEPTH = 6;

/** The edits that shift the headings of `source` (parsed as `tree`) among its first `limit` characters. */
export function headingShiftEdits(source: string, tree: Root, limit = source.length): Edit[] {
  const headings: Heading[] = [];
  walk(tree, (node) => {
    if (node.type === 'heading' && node.position!.start.offset! < limit) headings.push(node);
  });
  if (!headings.some((h) => h.depth === 1)) return [];
  return headings.flatMap((heading) => shiftHeading(source, heading));
}

function shiftHeading(source: string, heading: Heading): Edit[] {
  const { start, end } = heading.position!;
  if (heading.depth >= MAX_DEPTH) return [];
  // An ATX heading is one line; a setext heading has at least its text line and its underline.
  if (start.line === end.line) return [{ start: start.offset!, end: start.offset!, text: '#' }];
  const underlineStart =
    Math.max(source.lastIndexOf('\n', end.offset! - 1), source.lastIndexOf('\r', end.offset! - 1)) + 1;
  if (heading.depth === 1) {
    return [
      { start: underlineStart, end: end.offset!, text: source.slice(underlineStart, end.offset!).replaceAll('=', '-') },
    ];
  }
  return setextToAtx(source, heading);
}

/** `Text` over `---` → `### Text`: the text's line breaks (and the next line's prefix) become spaces. */
function setextToAtx(source: string, heading: Heading): Edit[] {
  const first = heading.children[0]!.position!.start.offset!;
  const last = heading.children[heading.children.length - 1]!.position!.end.offset!;
  const edits: Edit[] = [{ start: first, end: first, text: `${'#'.repeat(heading.depth + 1)} ` }];
  for (const lineBreak of source.slice(first, last).matchAll(/[ \t]*(?:\r\n|\r|\n)[ \t>]*/g)) {
    edits.push({ start: first + lineBreak.index, end: first + lineBreak.index + lineBreak[0].length, text: ' ' });
  }
  // From the end of the text to the end of the underline: the line break, any prefix, the underline.
  edits.push({ start: last, end: heading.position!.end.offset!, text: '' });
  return edits;
}
