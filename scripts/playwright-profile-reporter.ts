/**
 * A Playwright reporter that writes where each spec file's time went, in the form
 * scripts/test-profile.mjs prints (the vitest reporter's): per file the hooks and fixtures (the
 * "Before Hooks" and "After Hooks" steps: the page, sign-ins, beforeAll/afterAll) and the tests'
 * own bodies; per test its duration. Playwright loads spec files inside its workers and reports no
 * import time, so that column stays 0; the global set-up (the server start and the seed) is the
 * run's wall time less the time the workers spent in tests.
 *
 * The file goes to .ci-out/playwright/profile.json (PLAYWRIGHT_PROFILE_OUT overrides it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

interface ProfiledFile {
  file: string;
  totalMs: number;
  setupMs: number;
  importMs: number;
  hooksMs: number;
  runMs: number;
  tests: { name: string; ms: number; state: string }[];
}

const root = fileURLToPath(new URL('..', import.meta.url));

export default class PlaywrightProfileReporter implements Reporter {
  private readonly files = new Map<string, ProfiledFile>();
  private readonly started = Date.now();

  onTestEnd(test: TestCase, result: TestResult): void {
    const file = path.relative(root, test.location.file);
    let entry = this.files.get(file);
    if (!entry) {
      entry = { file, totalMs: 0, setupMs: 0, importMs: 0, hooksMs: 0, runMs: 0, tests: [] };
      this.files.set(file, entry);
    }
    const hooksMs = result.steps
      .filter((step) => step.category === 'hook' || step.category === 'fixture')
      .reduce((sum, step) => sum + step.duration, 0);
    const runMs = Math.max(0, result.duration - hooksMs);
    entry.totalMs += result.duration;
    entry.hooksMs += hooksMs;
    entry.runMs += runMs;
    entry.tests.push({ name: test.titlePath().slice(3).join(' > '), ms: runMs, state: result.status });
  }

  onEnd(_result: FullResult): void {
    const out = process.env.PLAYWRIGHT_PROFILE_OUT ?? path.join(root, '.ci-out', 'playwright', 'profile.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    const report = { runner: 'playwright', wallMs: Date.now() - this.started, files: [...this.files.values()] };
    fs.writeFileSync(out, `${JSON.stringify(report, null, 1)}\n`);
  }
}
