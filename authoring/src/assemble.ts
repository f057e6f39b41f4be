/**
 * `assemble-markdown`: the course title as the one level-1 heading, then one field's markdown
 * of every part that has it, in course order. The author's bytes are copied as they are; only
 * relative image destinations (so that they read from the course root) and, in a part with a
 * level-1 heading of its own, heading markers are spliced in place (by mdast offsets, never
 * re-serialized).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Root } from 'mdast';
import type { Course, PartContent } from './course.js';
import { BuildError, type BuildProblem } from './errors.js';
import { headingShiftEdits } from './headings.js';
import { localImages } from './images.js';
import { parsePart } from './markdown.js';
import { applyEdits, type Edit } from './splice.js';
import { walk } from './walk.js';

export interface AssembledMarkdown {
  markdown: string;
  /** The local images referenced, course-relative, each once, in first-use order. */
  images: readonly string[];
  /** The content files assembled, in order. */
  files: readonly string[];
}

interface Reference {
  file: string;
  line: number;
  column: number;
  url: string;
}

export interface AssembleOptions {
  /**
   * Images whose existence the caller answers for: they are not looked up. A build copying an
   * image already learns from the copy whether it is there, and assembles again without this
   * when a copy fails, for the image-missing errors.
   */
  vouched?: (image: string) => boolean;
}

/**
 * Assembles `field` of the course's parts. Throws BuildError listing every local image that
 * is missing or lies outside the course, and every way concatenation would change what a part
 * means (a block running into the next part, a reference label defined differently elsewhere).
 */
export function assembleMarkdown(course: Course, field: string, options: AssembleOptions = {}): AssembledMarkdown {
  const problems: BuildProblem[] = [];
  const references = new Map<string, Reference[]>();
  const definitions = new Map<string, { value: string; file: string; line: number }>();
  const files: string[] = [];
  let markdown = `# ${course.title}\n`;
  let separator = '\n';
  let swallowing: BuildProblem | undefined;

  for (const part of course.parts) {
    const content = part.content.get(field);
    if (content?.extension !== 'md' || content.text.trim() === '') continue;
    const { text: source } = content;
    const { tree, next, closing, blank } = parsePart(content);
    const { edits, rewritten } = rebaseImages(part.dir, content, tree, references, problems);
    checkDefinitions(content, tree, rewritten, definitions, problems);
    // Only a part that has a next part can swallow it.
    if (swallowing) problems.push(swallowing);
    const swallower = blockSwallowingNext(tree, next);
    swallowing = swallower && { file: content.file, rule: 'part-unclosed', ...swallower };

    const text = applyEdits(source, [...edits, ...headingShiftEdits(source, tree, next)]);
    markdown += `${separator}${text}${closing}`;
    separator = blank;
    files.push(content.file);
  }

  // With other problems the build fails here: every image is looked up, so that all are listed.
  const vouched = problems.length === 0 ? options.vouched : undefined;
  for (const [image, refs] of references) {
    if (vouched?.(image) || isFile(path.join(course.root, image))) continue;
    for (const ref of refs) {
      problems.push({
        file: ref.file,
        line: ref.line,
        column: ref.column,
        rule: 'image-missing',
        message:
          `image "${ref.url}" not found (looked for ${image}): ` +
          `add the file, or fix the path (relative to ${path.posix.dirname(ref.file)}/)`,
      });
    }
  }
  if (problems.length > 0) throw new BuildError(inCourseOrder(problems, files));
  return { markdown, images: [...references.keys()], files };
}

/** The edits re-basing every relative image destination of the part on the course root. */
function rebaseImages(
  dir: string,
  content: PartContent,
  tree: Root,
  references: Map<string, Reference[]>,
  problems: BuildProblem[],
): { edits: Edit[]; rewritten: Map<number, string> } {
  const source = content.text;
  const edits: Edit[] = [];
  // Definition start line → its destination as written in the output.
  const rewritten = new Map<number, string>();
  for (const { destination: d, resolved } of localImages(dir, source, tree)) {
    if ('error' in resolved) {
      const message = `image "${d.url}" ${resolved.error}: copy the file into the course and refer to it there`;
      problems.push({ file: content.file, line: d.line, column: d.column, rule: 'image-outside-course', message });
      continue;
    }
    edits.push({ start: d.start, end: d.end, text: resolved.rewritten });
    if (d.node === 'definition') rewritten.set(d.start, resolved.rewritten);
    const refs = references.get(resolved.path) ?? [];
    refs.push({ file: content.file, line: d.line, column: d.column, url: d.url });
    references.set(resolved.path, refs);
  }
  return { edits, rewritten };
}

/**
 * Reference definitions are document-wide: once parts share one file, the first definition of
 * a label wins everywhere. A part that uses a label defined differently by an earlier part
 * would silently show the other part's target, so that is an error.
 */
function checkDefinitions(
  content: PartContent,
  tree: Root,
  rewritten: Map<number, string>,
  seen: Map<string, { value: string; file: string; line: number }>,
  problems: BuildProblem[],
): void {
  const used = new Set<string>();
  const own = new Map<string, { value: string; line: number }>();
  walk(tree, (node) => {
    if (node.type === 'imageReference' || node.type === 'linkReference') used.add(node.identifier);
    if (node.type === 'definition' && !own.has(node.identifier)) {
      const destination = [...rewritten.entries()].find(
        ([start]) => start >= node.position!.start.offset! && start < node.position!.end.offset!,
      )?.[1];
      own.set(node.identifier, {
        value: `${destination ?? node.url}\u0000${node.title ?? ''}`,
        line: node.position!.start.line,
      });
    }
  });
  for (const [label, def] of own) {
    const earlier = seen.get(label);
    if (!earlier) {
      seen.set(label, { ...def, file: content.file });
    } else if (earlier.file !== content.file && earlier.value !== def.value && used.has(label)) {
      problems.push({
        file: content.file,
        line: def.line,
        column: 1,
        rule: 'reference-conflict',
        message:
          `reference label [${label}] is also defined in ${earlier.file}:${earlier.line} with another destination; ` +
          'in the assembled file the first definition wins, so rename one of them',
      });
    }
  }
}

/**
 * Where the block starts that runs over the end of the part into `next` (the offset where the
 * stand-in for the next part begins): an unclosed code fence, an unclosed HTML block.
 */
function blockSwallowingNext(tree: Root, next: number): Omit<BuildProblem, 'file' | 'rule'> | undefined {
  const last = tree.children[tree.children.length - 1];
  if (!last || last.position?.start.offset === next) return undefined;
  const culprit =
    tree.children.find((node) => node.position!.start.offset! < next && node.position!.end.offset! > next) ?? last;
  const what =
    culprit.type === 'code'
      ? 'code block (unclosed fence?)'
      : culprit.type === 'html'
        ? 'HTML block (unclosed?)'
        : culprit.type;
  return {
    line: culprit.position!.start.line,
    column: culprit.position!.start.column,
    message: `this ${what} does not end within the file, so in the assembled file it would swallow the parts after it`,
  };
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function inCourseOrder(problems: BuildProblem[], files: readonly string[]): BuildProblem[] {
  const rank = (p: BuildProblem) => files.indexOf(p.file ?? '');
  return problems.sort(
    (a, b) => rank(a) - rank(b) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0),
  );
}
