/**
 * Image references in markdown: where each destination sits in the author's bytes (found from
 * the mdast node's offsets, so it can be spliced without re-serializing), which ones point at
 * local files, how a part-relative destination reads from the course root, and copying the files.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Root } from 'mdast';
import { walk } from './walk.js';

export interface ImageDestination {
  /** `image`: `![alt](dest "title")`; `definition`: `[label]: dest "title"` used by an image reference. */
  node: 'image' | 'definition';
  /** mdast's url: backslash escapes and character references decoded, percent-encoding kept. */
  url: string;
  /** The destination as written, without angle brackets: `source.slice(start, end)`. */
  start: number;
  end: number;
  angle: boolean;
  /** Where the node starts (1-based). */
  line: number;
  column: number;
}

export interface LocalImage {
  destination: ImageDestination;
  /** Where it reads from the course root, or why it cannot. */
  resolved: ResolvedImage | { error: string };
}

// A build looks a part's images up twice: to start copying them during the check, and to assemble.
const localImagesOf = new WeakMap<Root, { dir: string; source: string; found: readonly LocalImage[] }>();

/**
 * The part's relative image destinations (the ones a build copies and rewrites), each resolved
 * against the part's directory `dir`, found once per parsed tree and shared: the result must not be changed.
 */
export function localImages(dir: string, source: string, tree: Root): readonly LocalImage[] {
  const known = localImagesOf.get(tree);
  if (known?.source === source && known.dir === dir) return known.found;
  const found = imageDestinations(source, tree)
    .filter((d) => classifyUrl(d.url) === 'relative')
    .map((d) => ({ destination: d, resolved: resolveImage(dir, source.slice(d.start, d.end), d.url) }));
  localImagesOf.set(tree, { dir, source, found });
  return found;
}

/** Every image destination of a markdown text, in source order. */
export function imageDestinations(source: string, tree: Root): ImageDestination[] {
  const imageLabels = new Set<string>();
  const quoted = new Set<unknown>();
  walk(tree, (node) => {
    if (node.type === 'imageReference') imageLabels.add(node.identifier);
    if (node.type === 'blockquote') walk(node, (inner) => void quoted.add(inner));
  });
  const found: ImageDestination[] = [];
  const definitionsSeen = new Set<string>();
  walk(tree, (node) => {
    if (node.type !== 'image' && node.type !== 'definition') return;
    const start = node.position?.start;
    const end = node.position?.end;
    if (start?.offset === undefined || end?.offset === undefined) return;
    const inQuote = quoted.has(node);
    if (node.type === 'definition') {
      // The first definition of a label is the one references use; later ones are inert.
      if (definitionsSeen.has(node.identifier)) return;
      definitionsSeen.add(node.identifier);
      if (!imageLabels.has(node.identifier)) return;
    }
    const at =
      node.type === 'image'
        ? locateInlineDestination(source, start.offset, end.offset, inQuote)
        : locateDefinitionDestination(source, start.offset, end.offset, inQuote);
    if (!at)
      throw new Error(
        `cph: cannot locate the destination of the ${node.type} at line ${start.line} (please report this)`,
      );
    const raw = source.slice(at.start, at.end);
    if (!/[\\&]/.test(raw) && raw !== node.url) {
      throw new Error(
        `cph: located "${raw}" for the ${node.type} at line ${start.line}, expected "${node.url}" (please report this)`,
      );
    }
    found.push({ node: node.type, url: node.url, ...at, line: start.line, column: start.column });
  });
  return found.sort((a, b) => a.start - b.start);
}

interface Located {
  start: number;
  end: number;
  angle: boolean;
}

/** `![alt](dest "title")` spanning [from, to): the destination of the resource that ends at `to`. */
function locateInlineDestination(src: string, from: number, to: number, inQuote: boolean): Located | undefined {
  // The label may hold `](` itself (nested links, code spans); the real resource is the first
  // `](` after which a complete resource runs exactly to the node's end.
  for (let i = src.indexOf('](', from); i !== -1 && i < to; i = src.indexOf('](', i + 1)) {
    if (isEscaped(src, i)) continue;
    const resource = parseResource(src, i + 1, to, inQuote);
    if (resource && resource.end === to) return resource.destination;
  }
  return undefined;
}

/** `[label]: dest "title"` spanning [from, to). */
function locateDefinitionDestination(src: string, from: number, to: number, inQuote: boolean): Located | undefined {
  let i = from + 1;
  while (i < to && !(src[i] === ']' && !isEscaped(src, i))) i++;
  if (src[i + 1] !== ':') return undefined;
  i = skipSpace(src, i + 2, to, inQuote);
  return parseDestination(src, i, to)?.destination;
}

/** Parses `(dest "title")` starting at the `(`; undefined when it is not a resource. */
function parseResource(
  src: string,
  open: number,
  limit: number,
  inQuote: boolean,
): { destination: Located; end: number } | undefined {
  let i = skipSpace(src, open + 1, limit, inQuote);
  const dest = parseDestination(src, i, limit);
  if (!dest) return undefined;
  i = skipSpace(src, dest.next, limit, inQuote);
  const quote = src[i];
  if (quote === '"' || quote === "'" || quote === '(') {
    const close = quote === '(' ? ')' : quote;
    i++;
    while (i < limit && src[i] !== close) i += src[i] === '\\' ? 2 : 1;
    if (i >= limit) return undefined;
    i = skipSpace(src, i + 1, limit, inQuote);
  }
  if (src[i] !== ')') return undefined;
  return { destination: dest.destination, end: i + 1 };
}

function parseDestination(src: string, i: number, limit: number): { destination: Located; next: number } | undefined {
  if (src[i] === '<') {
    let j = i + 1;
    while (j < limit && src[j] !== '>') {
      const c = src[j]!;
      if (c === '\n' || c === '\r' || c === '<') return undefined;
      j += c === '\\' ? 2 : 1;
    }
    if (src[j] !== '>') return undefined;
    return { destination: { start: i + 1, end: j, angle: true }, next: j + 1 };
  }
  let j = i;
  let depth = 0;
  while (j < limit) {
    const c = src[j]!;
    const code = c.charCodeAt(0);
    if (c === '\\' && j + 1 < limit && /[!-/:-@[-`{-~]/.test(src[j + 1]!)) {
      j += 2;
      continue;
    }
    if (code <= 0x20 || code === 0x7f) break;
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) break;
      depth--;
    }
    j++;
  }
  if (depth !== 0) return undefined;
  return { destination: { start: i, end: j, angle: false }, next: j };
}

/** Spaces and tabs, at most one line ending, and (in a block quote) the next line's `>` prefix. */
function skipSpace(src: string, i: number, limit: number, inQuote: boolean): number {
  while (i < limit && (src[i] === ' ' || src[i] === '\t')) i++;
  if (src[i] === '\r' || src[i] === '\n') {
    i += src[i] === '\r' && src[i + 1] === '\n' ? 2 : 1;
    const prefix = inQuote ? /[ \t>]/ : /[ \t]/;
    while (i < limit && prefix.test(src[i]!)) i++;
  }
  return i;
}

function isEscaped(src: string, i: number): boolean {
  let backslashes = 0;
  for (let j = i - 1; j >= 0 && src[j] === '\\'; j--) backslashes++;
  return backslashes % 2 === 1;
}

export type UrlClass = 'relative' | 'remote' | 'data' | 'other';

/**
 * `relative`: a file next to the markdown (rewritten and copied). `remote`: http, https and
 * protocol-relative. `data`: inline. `other`: empty, root-absolute, fragment- or query-only, or
 * any other scheme. Only `relative` is touched.
 */
export function classifyUrl(url: string): UrlClass {
  if (url.startsWith('//')) return 'remote';
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') return 'remote';
  if (scheme === 'data') return 'data';
  if (scheme !== undefined || url === '' || /^[/#?]/.test(url)) return 'other';
  return 'relative';
}

export interface ResolvedImage {
  /** The new destination text: the author's, re-based on the course root, encoding style kept. */
  rewritten: string;
  /** The file, POSIX and decoded, relative to the course root. */
  path: string;
}

/**
 * Re-bases a relative destination written in `dir` (relative to the course root) onto the
 * course root. The file is looked up percent-decoded (as a browser would request it), falling
 * back to the text as written when it is not valid percent-encoding.
 */
export function resolveImage(dir: string, raw: string, url: string): ResolvedImage | { error: string } {
  const urlPath = url.split(/[?#]/, 1)[0]!;
  const file = path.posix.normalize(`${dir}/${safeDecode(urlPath)}`);
  if (file === '..' || file.startsWith('../') || file.includes('\0')) return { error: 'leaves the course directory' };

  const cut = raw.search(/[?#]/);
  const rawPath = cut === -1 ? raw : raw.slice(0, cut);
  const suffix = cut === -1 ? '' : raw.slice(cut);
  const segments: string[] = [];
  const all = [...dir.split('/'), ...rawPath.split('/')];
  for (const [i, segment] of all.entries()) {
    const meaning = safeDecode(segment.includes('\\') ? segment.replace(/\\(.)/g, '$1') : segment);
    if (meaning === '.' || (meaning === '' && i < all.length - 1)) continue;
    if (meaning === '..') segments.pop();
    else segments.push(segment);
  }
  return { rewritten: segments.join('/') + suffix, path: file };
}

function safeDecode(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * How images are copied: always into a build's new staging directory, never over a file (EXCL
 * spares libuv an fstat and a truncate per file), and as a reflink where the file system has them.
 */
export const COPY_MODE = fs.constants.COPYFILE_EXCL | fs.constants.COPYFILE_FICLONE;

/**
 * Copies course-relative files from `root` to the same relative paths under `destRoot`. Each
 * directory not among `existing` is made once, parents first, so there is one mkdir per directory
 * (as `cp -r` does), not one recursive mkdir per file or per image directory.
 */
export async function copyFiles(
  root: string,
  files: readonly string[],
  destRoot: string,
  options: { existing?: Pick<ReadonlySet<string>, 'has'>; concurrency?: number } = {},
): Promise<void> {
  for (const dir of directoriesOf(files)) if (!options.existing?.has(dir)) fs.mkdirSync(path.join(destRoot, dir));
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      await fs.promises.copyFile(path.join(root, file), path.join(destRoot, file), COPY_MODE);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 8, files.length) }, worker));
}

/** Every directory that holds one of the POSIX relative `files`, each once, parents before children. */
export function directoriesOf(files: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const file of files) {
    // Stop at the first directory already known: its parents are known too.
    for (let dir = path.posix.dirname(file); dir !== '.' && !dirs.has(dir); dir = path.posix.dirname(dir))
      dirs.add(dir);
  }
  return [...dirs].sort((a, b) => a.length - b.length);
}
