#!/usr/bin/env node
/**
 * Counts the imports that run back up the house: from a file on a lower floor to one on a higher
 * floor (a service naming an HTTP type, an operations module taking the composition root's bag).
 * Reads the module graph dpdm draws from the two entry points, type-only imports included: a
 * service that names an HTTP type still leans on that layer.
 *
 *   node scripts/layer-arrows.mjs            the count, and each arrow running back up
 *   node scripts/layer-arrows.mjs --count    the count alone
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The floors, lowest first; a file stands on the first floor one of whose patterns it matches, else
 * on the ground floor (stores, services, mappers and projections, db, shared, config...). From the
 * first floor requests arrive (the HTTP layer, each area's operations, console commands); the top
 * floor assembles the process (the composition root, the host console).
 */
const FLOORS = [
  { floor: 2, patterns: [/^src\/app\//, /^src\/cli\//] },
  { floor: 1, patterns: [/^src\/http\//, /(^|[-/])operations\.ts$/, /(^|[-/])command\.ts$/] },
];

const floorOf = (file) => FLOORS.find(({ patterns }) => patterns.some((p) => p.test(file)))?.floor ?? 0;

function moduleGraph() {
  const dir = mkdtempSync(path.join(tmpdir(), 'layer-arrows-'));
  const output = path.join(dir, 'graph.json');
  try {
    execFileSync(
      'npx',
      ['dpdm', '--no-warning', '--no-tree', '--no-circular', '--output', output, 'src/cli/hub.ts', 'src/http/app.ts'],
      { stdio: 'ignore' },
    );
    return JSON.parse(readFileSync(output, 'utf8')).tree;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const arrows = [];
let imports = 0;
for (const [issuer, dependencies] of Object.entries(moduleGraph())) {
  if (!issuer.startsWith('src/')) continue;
  for (const { id } of dependencies ?? []) {
    if (!id?.startsWith('src/')) continue;
    imports++;
    if (floorOf(issuer) < floorOf(id)) arrows.push(`${issuer} -> ${id}`);
  }
}
if (!process.argv.includes('--count')) for (const arrow of arrows) console.log(arrow);
console.log(`${arrows.length} of ${imports} imports within src/ run back up`);
