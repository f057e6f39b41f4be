/**
 * The slide outline rule, checked on the mdast: at the top level only level-2 (part) and level-3
 * (section) headings, images (paragraphs holding nothing but images), ```widget fenced blocks,
 * and the link reference definitions reference-style images need. The first heading is level 2.
 */
import type { Paragraph, Root, RootContent } from 'mdast';
import { parseMarkdown } from './markdown.js';

export interface OutlineProblem {
  line: number | null;
  column: number | null;
  message: string;
}

const WIDGET_LANG = 'widget';

/** Every break of the outline rule, in document order; empty when the outline is valid. */
export function checkOutline(markdown: string | Root): OutlineProblem[] {
  const tree = typeof markdown === 'string' ? parseMarkdown(markdown) : markdown;
  const problems: OutlineProblem[] = [];
  let sawHeading = false;
  for (const node of tree.children) {
    const at = { line: node.position?.start.line ?? null, column: node.position?.start.column ?? null };
    if (node.type === 'heading') {
      if (node.depth !== 2 && node.depth !== 3) {
        problems.push({
          ...at,
          message:
            `level-${node.depth} heading: ` +
            'an outline has level-2 part headings (##) and level-3 section headings (###) only',
        });
      } else if (!sawHeading && node.depth === 3) {
        problems.push({
          ...at,
          message: 'the first heading of an outline must be a level-2 part heading (##), not level 3',
        });
      }
      sawHeading = true;
      continue;
    }
    const refusal = refuse(node);
    if (refusal) problems.push({ ...at, message: refusal });
  }
  return problems;
}

/** Why a non-heading top-level node has no place in an outline, or undefined when it has. */
function refuse(node: RootContent): string | undefined {
  switch (node.type) {
    case 'definition':
      return undefined;
    case 'paragraph':
      return onlyImages(node)
        ? undefined
        : 'paragraph with text or links: besides headings, an outline holds images, each paragraph nothing but images';
    case 'code':
      if (node.lang === WIDGET_LANG) return undefined;
      return node.lang
        ? `code block "${node.lang}": the only code blocks of an outline are \`\`\`${WIDGET_LANG} blocks`
        : `code block: the only code blocks of an outline are \`\`\`${WIDGET_LANG} fenced blocks`;
    default:
      return `${describe(node.type)}: an outline holds only level-2/3 headings, images and \`\`\`${WIDGET_LANG} blocks`;
  }
}

function onlyImages(paragraph: Paragraph): boolean {
  let images = 0;
  for (const child of paragraph.children) {
    if (child.type === 'image' || child.type === 'imageReference') images++;
    else if (child.type !== 'break' && !(child.type === 'text' && child.value.trim() === '')) return false;
  }
  return images > 0;
}

const NAMES: Record<string, string> = {
  list: 'list',
  blockquote: 'block quote',
  thematicBreak: 'thematic break',
  html: 'HTML',
  table: 'table',
};

function describe(type: string): string {
  return NAMES[type] ?? type;
}
