#!/usr/bin/env node
/**
 * Fails when a file of the repository cites a document outside it: the code, tests and docs speak
 * only of the repository. A decision the code relies on is written in docs/decisions.md, and a
 * comment names it there or says its reason itself; a measured figure is written in
 * bench/README.md. A pointer into a page names a heading the page has, and no comment of `src/`
 * quotes a measured figure. What counts as citing an outside document:
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';

const OUTSIDE = [
  { pattern: /\bDESIGN(\.md|\s*§)/, says: 'a design document outside the repository' },
  { pattern: /\b(STYLE|STACK)\.md\b/, says: 'a document of habits outside the repository' },
  { pattern: /\/work\/shared|\.\.\/shared\/(spec|DESIGN|STYLE|STACK)/, says: 'a folder outside the repository' },
  { pattern: /\b[Tt]he issue('s)?\b|\b(issue|ticket)s? #?\d+\b/, says: 'an issue, which a checkout does not hold' },
];

/**
 * A measured figure in a comment of `src/`: a time in microseconds, a rate, a ratio, or a before
 * and after (`3.9 → 2 ms`). Figures go stale in comments; bench/README.md is where they are kept.
 */
const FIGURE =
  /(\/\/|^\s*\*|\/\*).*(\d\s?µs\b|\d\s?(k\s)?(req|runs)\/s\b|×\s?\d|\d[\d.,]*\s?(ms|µs|MB|KB|s)?\s?→\s?~?\d)/;

/** Files that hold the patterns as text: this script and its test. */
const EXEMPT = new Set(['scripts/check-doc-citations.mjs', 'test/docs/doc-lint.test.ts']);
const SKIPPED =
  /^(package-lock\.json$|generated\/|sdk\/src\/generated\/|authoring\/generated\/)|\.(png|pdf|ico|woff2?)$/;

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !EXEMPT.has(f) && !SKIPPED.test(f));

/**
 * A pointer into a page by its heading, `docs/decisions.md, "Request pipeline"` or
 * `bench/README.md, "Figures behind the code"`, across a comment's line break too.
 */
const POINTER =
  /(docs\/[\w-]+\.md|bench\/README\.md|(?<![\w/])README(?:\.md)?)(?:'s)?(?:,\s*|\s+)(?:(?:\*|\/\/)\s*)?\(?"([^"]+)"/g;
const headings = new Map();
function headingsOf(page) {
  if (!headings.has(page)) {
    const text = existsSync(page) ? readFileSync(page, 'utf8') : '';
    const names = [...text.matchAll(/^#+ (.+)$/gm)].map(([, name]) => name.replace(/`/g, '').trim());
    headings.set(page, new Set(names));
  }
  return headings.get(page);
}

const found = [];
for (const file of files) {
  if (!existsSync(file) || statSync(file).isDirectory()) continue;
  const bytes = readFileSync(file);
  if (bytes.includes(0)) continue; // binary
  const text = bytes.toString('utf8');
  for (const { 0: pointer, 1: page, 2: heading, index } of text.matchAll(POINTER)) {
    const target = page === 'README' ? 'README.md' : page;
    if (headingsOf(target).has(heading)) continue;
    const line = text.slice(0, index).split('\n').length;
    found.push(`${file}:${line}: points at a heading ${target} does not have: ${pointer.replace(/\s+/g, ' ')}`);
  }
  text.split('\n').forEach((content, i) => {
    if (file.startsWith('src/') && FIGURE.test(content)) {
      found.push(`${file}:${i + 1}: quotes a measured figure in a comment: ${content.trim().slice(0, 100)}`);
    }
    for (const { pattern, says } of OUTSIDE) {
      if (pattern.test(content)) found.push(`${file}:${i + 1}: cites ${says}: ${content.trim().slice(0, 100)}`);
    }
  });
}

if (found.length) {
  const plural = found.length === 1 ? '' : 's';
  console.error(`${found.length} citation${plural} of what is not in the repository, or of a heading not there:`);
  for (const line of found) console.error(`  ${line}`);
  console.error('Write the decision into docs/decisions.md, a figure into bench/README.md, and point there.');
  process.exit(1);
}
