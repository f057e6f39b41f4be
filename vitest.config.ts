import fs from 'node:fs';
import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { parse } from 'yaml';
import { engineDependentFiles } from './test/support/engine-files.js';
import { scratchRoot } from './test/support/scratch.js';

// Every temporary file of the run, the global set-up's, the workers' and the processes they
// start (all inherit the environment), goes where test/support/scratch.ts says.
process.env.TMPDIR = scratchRoot();

/**
 * Two projects: `engines`, the files whose behaviour depends on the database engine (read from
 * the files, see test/support/engine-files.ts), run on SQLite and again on PostgreSQL when
 * TEST_DATABASE_URL names a server; `once`, every other file, runs in the SQLite pass only
 * (`npm test -- --project engines` is the PostgreSQL pass). `npm test` runs both.
 */
const engineFiles = engineDependentFiles(import.meta.dirname);

export default defineConfig({
  // The contract as JSON text, parsed here once per run, as the bundle `hub` starts from carries it
  // (bin/bundle.js): each test file's process would otherwise parse the YAML again.
  define: {
    __HUB_OPENAPI_JSON__: JSON.stringify(JSON.stringify(parse(fs.readFileSync('openapi.yaml', 'utf8')))),
  },
  test: {
    environment: 'node',
    pool: 'forks',
    // One file per core. vitest's default leaves a core to its own process, which only collects
    // results: on a 2-core machine that ran the files one at a time.
    maxWorkers: os.availableParallelism(),
    // Only a guard against a hang: a busy 2-core machine may take many times a quiet one's
    // time, and no test may fail for being slow. Tests wait for events, never for a clock.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'engines',
          include: engineFiles,
          // The migrated template database each file's database is copied from.
          globalSetup: ['test/support/template-database.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'once', include: ['test/**/*.test.ts'], exclude: engineFiles },
      },
    ],
  },
});
