#!/usr/bin/env node
/**
 * Fails when a file of the repository cites a document outside it: the code, tests and docs speak
 * only of the repository. A decision the code relies on is written in docs/decisions.md, and a
 * comment names it there or says its reason itself; a measured figure is written in
 * bench/README.md. What counts as citing one, each pattern with the reason it is refused:
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';

const OUTSIDE = [
  { pattern: /\bDESIGN(\.md|\s*§)/, says: 'a design document outside the repository' },
  { pattern: /\b(STYLE|STACK)\.md\b/, says: 'a document of habits outside the repository' },
  { pattern: /\/work\/shared|\.\.\/shared\/(spec|DESIGN|STYLE|STACK)/, says: 'a folder outside the repository' },
  { pattern: /\b[Tt]he issue('s)?\b|\b(issue|ticket)s? #?\d+\b/, says: 'an issue, which a checkout does not hold' },
];

/** Files that hold the patterns as text: this script. */
const EXEMPT = new Set(['scripts/check-doc-citations.mjs']);
const SKIPPED =
  /^(package-lock\.json$|generated\/|sdk\/src\/generated\/|authoring\/generated\/)|\.(png|pdf|ico|woff2?)$/;

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !EXEMPT.has(f) && !SKIPPED.test(f));

const found = [];
for (const file of files) {
  if (!existsSync(file) || statSync(file).isDirectory()) continue;
  const bytes = readFileSync(file);
  if (bytes.includes(0)) continue; // binary
  bytes
    .toString('utf8')
    .split('\n')
    .forEach((content, i) => {
      for (const { pattern, says } of OUTSIDE) {
        if (pattern.test(content)) found.push(`${file}:${i + 1}: cites ${says}: ${content.trim().slice(0, 100)}`);
      }
    });
}

if (found.length) {
  console.error(`${found.length} citation${found.length === 1 ? '' : 's'} of what is not in the repository:`);
  for (const line of found) console.error(`  ${line}`);
  console.error('Write the decision into docs/decisions.md (a figure into bench/README.md) and point there.');
  process.exit(1);
}
