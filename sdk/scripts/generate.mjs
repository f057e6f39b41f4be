// Generates src/generated/ from ../openapi.yaml:
//   openapi.ts     the contract's types (openapi-typescript, same tool and options as the
//                  service's `npm run generate`)
//   operations.ts  the operation table and the client's method interface
//   schemas.ts     every component schema as a named type
// Uses the repository root's toolchain (openapi-typescript, yaml); nothing is installed here.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  SPEC_PATH,
  deriveOperations,
  deriveSchemas,
  readSpec,
  renderOperationsModule,
  renderSchemasModule,
} from './spec.mjs';

const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(sdkDir, 'src', 'generated');
const repoDir = dirname(SPEC_PATH);
const require = createRequire(import.meta.url);

/** Writes through a temporary file, and only on change, so a concurrent reader never sees half a file. */
function writeIfChanged(file, text) {
  let current;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text) return;
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

function openapiTypescript() {
  const pkgFile = require.resolve('openapi-typescript/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin['openapi-typescript'];
  // Run from the repository root so it reads the same redocly.yaml as `npm run generate`.
  return execFileSync(process.execPath, [join(dirname(pkgFile), bin), SPEC_PATH, '--silent'], {
    cwd: repoDir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

export function generate() {
  const document = readSpec();
  const operations = deriveOperations(document);
  const schemas = deriveSchemas(document);
  const types = openapiTypescript();
  mkdirSync(outDir, { recursive: true });
  writeIfChanged(join(outDir, 'openapi.ts'), types);
  writeIfChanged(join(outDir, 'operations.ts'), renderOperationsModule(operations));
  writeIfChanged(join(outDir, 'schemas.ts'), renderSchemasModule(schemas));
  return { operations: operations.length, schemas: schemas.length };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { operations, schemas } = generate();
  console.log(`sdk: generated ${operations} operations and ${schemas} schema types from openapi.yaml`);
}
