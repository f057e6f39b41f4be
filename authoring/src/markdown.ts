/** The one markdown parser of cph: remark-parse (CommonMark), frozen once, positions kept. */
import type { Root } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

const parser = unified().use(remarkParse).freeze();

/** The mdast of a markdown text; node offsets index into `text` itself. */
export function parseMarkdown(text: string): Root {
  return parser.parse(text);
}
