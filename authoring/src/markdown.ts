/** The one markdown parser of cph: remark-parse (CommonMark), frozen once, positions kept. */
import type { Root } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import type { PartContent } from './course.js';
import { parseSimpleMarkdown } from './simple-markdown.js';

const parser = unified().use(remarkParse).freeze();

/** The mdast of a markdown text; node offsets index into `text` itself. */
export function parseMarkdown(text: string): Root {
  return parser.parse(text);
}

/** Stands in for the next part when a part is parsed. */
const NEXT_PART = 'cph: the next part starts here';

export interface ParsedPart {
  /**
   * The mdast of the part's text as assembly places it: followed by the line ending it may
   * lack, a blank line and a stand-in for the next part. Offsets below `next` index into the
   * part's own text; the stand-in shows whether the part's last block would swallow what follows.
   */
  tree: Root;
  /** Where the stand-in starts. */
  next: number;
  /** What assembly appends to the part: a line ending when it lacks a final one. */
  closing: string;
  /** The blank line assembly puts after the part, in the part's own line-ending style. */
  blank: string;
}

// Parsing is most of a check's and a build's work, and a build checks first: each content file is parsed once.
const parsedParts = new WeakMap<PartContent, ParsedPart>();

/** The parse of a markdown content file, made once per file read and shared by the check and the build. */
export function parsePart(content: PartContent): ParsedPart {
  let parsed = parsedParts.get(content);
  if (!parsed) {
    const source = content.text;
    const closing = /[\r\n]$/.test(source) ? '' : '\n';
    const blank = source.endsWith('\r') ? '\r' : '\n';
    const text = `${source}${closing}${blank}${NEXT_PART}\n`;
    // A valid outline is read line by line, to the same tree; anything else goes to remark.
    const tree = parseSimpleMarkdown(text) ?? parseMarkdown(text);
    parsed = { tree, next: source.length + closing.length + blank.length, closing, blank };
    parsedParts.set(content, parsed);
  }
  return parsed;
}

/** The part's own top-level blocks, without the stand-in for the next part. */
export function ownBlocks(parsed: ParsedPart): Root {
  return {
    ...parsed.tree,
    children: parsed.tree.children.filter((node) => node.position!.start.offset! < parsed.next),
  };
}
