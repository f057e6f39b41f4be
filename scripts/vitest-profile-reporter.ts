/**
 * A vitest reporter that writes where each test file's time went, for `npm run test:profile`
 * (scripts/test-profile.mjs reads it): per file the import (vitest's collect phase: transforming
 * and importing the module and its dependencies), the hooks (beforeAll/afterAll and the per-test
 * hooks: starting a server, making a database) and the tests themselves; per test its duration.
 *
 * The file goes to TEST_PROFILE_OUT, else .ci-out/vitest-profile.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export interface ProfiledTest {
  name: string;
  ms: number;
  state: string;
}

export interface ProfiledFile {
  file: string;
  /** The vitest project the file ran in (vitest.config.ts). */
  project: string;
  /** Wall time from the file's start to its end in its worker. */
  totalMs: number;
  /** Vitest's environment and runner set-up for the file. */
  setupMs: number;
  /** Transforming and importing the module and everything it imports, suite callbacks included. */
  importMs: number;
  /** Hooks: the tests' beforeAll/afterAll/beforeEach/afterEach. */
  hooksMs: number;
  /** The tests' own bodies. */
  runMs: number;
  tests: ProfiledTest[];
}

export default class ProfileReporter implements Reporter {
  private readonly files: ProfiledFile[] = [];
  private rootDir = process.cwd();

  onInit(vitest: { config: { root: string } }): void {
    this.rootDir = vitest.config.root;
  }

  onTestModuleEnd(module: TestModule): void {
    const diagnostic = module.diagnostic();
    const tests: ProfiledTest[] = [];
    for (const test of module.children.allTests()) {
      tests.push({
        name: test.fullName,
        ms: Math.round(test.diagnostic()?.duration ?? 0),
        state: test.result().state,
      });
    }
    const runMs = tests.reduce((sum, test) => sum + test.ms, 0);
    const setupMs = diagnostic.environmentSetupDuration + diagnostic.prepareDuration + diagnostic.setupDuration;
    this.files.push({
      file: path.relative(this.rootDir, module.moduleId),
      project: module.project.name,
      totalMs: Math.round(setupMs + diagnostic.collectDuration + diagnostic.duration),
      setupMs: Math.round(setupMs),
      importMs: Math.round(diagnostic.collectDuration),
      hooksMs: Math.max(0, Math.round(diagnostic.duration - runMs)),
      runMs,
      tests,
    });
  }

  onTestRunEnd(): void {
    const out = process.env.TEST_PROFILE_OUT ?? path.join(this.rootDir, '.ci-out', 'vitest-profile.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify({ files: this.files }, null, 1)}\n`);
  }
}
