#!/usr/bin/env node
/**
 * Where the suite's time goes: the slowest test files and tests, with each file's time split into
 * set-up (the runner's, and for vitest the environment's), import (transforming and importing the
 * file and what it imports), hooks (beforeAll/afterAll and the per-test hooks and fixtures: servers,
 * databases, sign-ins) and the tests' own bodies.
 *
 *   npm run test:profile                          print the reports the last runs left in .ci-out/
 *   npm run test:profile -- --run [vitest args]   run vitest with the profile reporter first
 *   npm run test:profile -- --top 40 [files…]     more rows; reports to read instead of .ci-out's
 *   npm run test:profile -- --files               the slowest files only
 *
 * The reports: .ci-out/vitest-profile*.json (scripts/vitest-profile-reporter.ts; .ci/run writes one
 * per engine) and .ci-out/playwright/profile.json (scripts/playwright-profile-reporter.ts, written
 * by every browser run).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ciOut = path.join(root, '.ci-out');

const args = process.argv.slice(2);
let top = 20;
let filesOnly = false;
const reports = [];
const runIndex = args.indexOf('--run');
const own = runIndex === -1 ? args : args.slice(0, runIndex);
for (let i = 0; i < own.length; i += 1) {
  if (own[i] === '--top') {
    i += 1;
    top = Number(own[i]);
  } else if (own[i] === '--files') filesOnly = true;
  else reports.push(path.resolve(own[i]));
}

if (runIndex !== -1) {
  const out = path.join(ciOut, 'vitest-profile.json');
  const run = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=./scripts/vitest-profile-reporter.ts',
      ...args.slice(runIndex + 1),
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, TEST_PROFILE_OUT: out } },
  );
  if (reports.length === 0) reports.push(out);
  if (run.status !== 0) process.exitCode = run.status ?? 1;
}

if (reports.length === 0 && fs.existsSync(ciOut)) {
  for (const name of fs.readdirSync(ciOut).sort())
    if (/^vitest-profile.*\.json$/.test(name)) reports.push(path.join(ciOut, name));
  const playwright = path.join(ciOut, 'playwright', 'profile.json');
  if (fs.existsSync(playwright)) reports.push(playwright);
}
if (reports.length === 0) {
  console.error('no profile reports in .ci-out/: run `npm run test:profile -- --run [vitest args]` or .ci/run');
  process.exit(1);
}

const seconds = (ms) => (ms / 1000).toFixed(1).padStart(7);
const clip = (text, width) => (text.length > width ? `…${text.slice(text.length - width + 1)}` : text);
const name = (text, width) => clip(text, width).padEnd(width);

for (const report of reports) {
  const { files, runner = 'vitest', wallMs } = JSON.parse(fs.readFileSync(report, 'utf8'));
  const tests = files.flatMap((file) => file.tests.map((test) => ({ ...test, file: file.file })));
  const sum = (key) => files.reduce((total, file) => total + file[key], 0);
  console.log(`\n${runner}: ${path.relative(root, report)}`);
  console.log(
    `${files.length} files, ${tests.length} tests; summed over files: ${(sum('totalMs') / 1000).toFixed(1)} s` +
      ` (set-up ${(sum('setupMs') / 1000).toFixed(1)}, import ${(sum('importMs') / 1000).toFixed(1)},` +
      ` hooks ${(sum('hooksMs') / 1000).toFixed(1)}, tests ${(sum('runMs') / 1000).toFixed(1)})` +
      (wallMs ? `; wall ${(wallMs / 1000).toFixed(1)} s` : ''),
  );
  console.log(`\nslowest ${top} files (seconds)${' '.repeat(28)}  total  set-up  import   hooks   tests  count`);
  for (const file of [...files].sort((a, b) => b.totalMs - a.totalMs).slice(0, top))
    console.log(
      `${name(file.file, 58)}${seconds(file.totalMs)} ${seconds(file.setupMs)} ${seconds(file.importMs)} ` +
        `${seconds(file.hooksMs)} ${seconds(file.runMs)}  ${String(file.tests.length).padStart(5)}`,
    );
  if (filesOnly) continue;
  console.log(`\nslowest ${top} tests (seconds)`);
  for (const test of tests.sort((a, b) => b.ms - a.ms).slice(0, top))
    console.log(`${seconds(test.ms)}  ${clip(`${test.file} > ${test.name}`, 110)}`);
}
