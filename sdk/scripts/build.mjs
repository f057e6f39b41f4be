// Builds the publishable package: generate src/generated/ from ../openapi.yaml, then compile
// the ESM build (dist/) and the CommonJS build (dist/cjs/) with the repository root's
// TypeScript. `npm pack` runs this (prepack), so a tarball is always built from the contract.
//
// The build goes to a private staging directory that replaces dist/ at the end, so a build
// running concurrently (another test run in the same tree) never sees a half-written dist/.
import { execFileSync } from 'node:child_process';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './generate.mjs';

const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const dist = join(sdkDir, 'dist');
const staging = join(sdkDir, `.dist-staging-${process.pid}`);
const retired = join(sdkDir, `.dist-retired-${process.pid}`);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function compile(project, outDir) {
  execFileSync(process.execPath, [tsc, '-p', join(sdkDir, project), '--outDir', outDir], {
    cwd: sdkDir,
    stdio: 'inherit',
  });
}

try {
  const { operations, schemas } = generate();
  compile('tsconfig.json', staging);
  compile('tsconfig.cjs.json', join(staging, 'cjs'));
  // The package is "type": "module"; this marks the CommonJS build as such for Node and TypeScript.
  writeFileSync(join(staging, 'cjs', 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
  try {
    renameSync(dist, retired);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  renameSync(staging, dist);
  console.error(`sdk: built dist/ (ESM) and dist/cjs/ (CommonJS): ${operations} operations, ${schemas} schema types`);
} finally {
  rmSync(staging, { recursive: true, force: true });
  rmSync(retired, { recursive: true, force: true });
}
