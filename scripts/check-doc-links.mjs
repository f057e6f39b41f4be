#!/usr/bin/env node
/**
 * Fails when a relative link between the repository's documents is broken: a file that does not
 * exist, or an anchor (`page.md#section`, `#section`) that no heading of the target makes. Links
 * to other sites (`https:`, `mailto:`) are not followed; links inside code are not links.
 *
 *   node scripts/check-doc-links.mjs              every document of the repository
 *   node scripts/check-doc-links.mjs FILE.md…     these only
 *
 * Anchors are made from headings as GitHub makes them: the heading's text, lower-cased, every
 * character that is no letter, digit, blank, `-` or `_` dropped, blanks made `-`; a repeated one
 * gets `-1`, `-2`, … An explicit `<a id="…">` or `<a name="…">` is an anchor too.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

/** The documents a reader follows links between; the authoring tool's course template is content. */
const DOCUMENTS = ['README.md', 'docs/', 'bench/README.md', 'sdk/README.md', 'authoring/README.md'];

const parser = unified().use(remarkParse);

function textOf(node) {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  return (node.children ?? []).map(textOf).join('');
}

function walk(node, visit) {
  visit(node);
  for (const child of node.children ?? []) walk(child, visit);
}

/** GitHub's anchor for a heading's text. */
export function slug(text) {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

const parsed = new Map();

/** A document's links (with their lines) and the anchors its headings make. */
function read(file) {
  if (parsed.has(file)) return parsed.get(file);
  const tree = parser.parse(readFileSync(file, 'utf8'));
  const anchors = new Set();
  const seen = new Map();
  const links = [];
  walk(tree, (node) => {
    if (node.type === 'heading') {
      const base = slug(textOf(node));
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count ? `${base}-${count}` : base);
    } else if (node.type === 'html') {
      for (const [, id] of node.value.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id);
    } else if (node.type === 'link' || node.type === 'definition') {
      links.push({ url: node.url, line: node.position?.start.line });
    }
  });
  const result = { anchors, links };
  parsed.set(file, result);
  return result;
}

function documents(args) {
  if (args.length) return args;
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...DOCUMENTS], {
    encoding: 'utf8',
  });
  return listed.split('\n').filter((f) => f.endsWith('.md') && existsSync(f));
}

const broken = [];
for (const file of documents(process.argv.slice(2))) {
  for (const { url, line } of read(file).links) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) continue; // another site
    const [target, anchor] = url.split('#', 2);
    const where = `${file}:${line}: ${url}`;
    const resolved = target ? path.normalize(path.join(path.dirname(file), decodeURIComponent(target))) : file;
    if (!existsSync(resolved)) {
      broken.push(`${where}: no such file (${resolved})`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) {
      broken.push(`${where}: an anchor into ${resolved}, which has no headings`);
    } else if (!read(resolved).anchors.has(decodeURIComponent(anchor))) {
      broken.push(`${where}: no heading of ${resolved} makes #${anchor}`);
    }
  }
}

if (broken.length) {
  console.error(`${broken.length} broken link${broken.length === 1 ? '' : 's'} between the docs:`);
  for (const line of broken) console.error(`  ${line}`);
  process.exit(1);
}
