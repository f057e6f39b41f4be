#!/usr/bin/env node
/**
 * The web app's boundaries: a feature (`web/src/features/<name>/`) imports only `components/`,
 * `lib/` and itself, and `components/` and `lib/` import no feature (their tests may). What two
 * features share lives in `components/` or `lib/`; the routes in `app/` compose features.
 * Prints each import that crosses a boundary and exits 1 when there is one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SRC = 'web/src';
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(file);
    else if (/\.tsx?$/.test(entry.name)) yield file;
  }
}

/** The feature a path inside `web/src` belongs to, if any. */
const featureOf = (file) => /^features\/([^/]+)\//.exec(path.relative(SRC, file).split(path.sep).join('/'))?.[1];
const isTest = (file) => /\.test\.tsx?$/.test(file) || file.includes(`${path.sep}__tests__${path.sep}`);
const isShared = (file) => /^(components|lib)\//.test(path.relative(SRC, file).split(path.sep).join('/'));

const crossings = [];
for (const file of sources(SRC)) {
  const from = featureOf(file);
  const shared = isShared(file) && !isTest(file);
  if (from === undefined && !shared) continue;
  for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const to = featureOf(path.join(path.dirname(file), specifier));
    if (to === undefined || to === from) continue;
    crossings.push(`${file}: imports ${specifier} (feature "${to}")`);
  }
}

if (crossings.length > 0) {
  process.stderr.write(
    `${crossings.join('\n')}\n${crossings.length} import(s) cross a feature boundary: ` +
      'move what is shared to web/src/components/ or web/src/lib/.\n',
  );
  process.exit(1);
}
