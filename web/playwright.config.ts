import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { scratchRoot } from '../test/support/scratch';

// The server's data directory and every other temporary file, as in vitest.config.ts.
process.env.TMPDIR = scratchRoot();

/** Artifacts (traces, failure screenshots, the server log) go where CI keeps them: .ci-out/ at the repo root. */
const ciOut = fileURLToPath(new URL('../.ci-out/', import.meta.url));

export default defineConfig({
  testDir: './e2e',
  // Two browsers, one per core: each spec file runs whole in one worker, and the files that
  // change what others look at work in an organization of their own (see e2e/support/seed.ts).
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Only guards against a hang, as in vitest.config.ts: two browsers on a busy 2-core machine may
  // take many times a quiet one's time, and no test may fail for being slow. An assertion retries
  // until it holds, so a longer wait proves the same thing.
  timeout: 600_000,
  expect: { timeout: 120_000 },
  outputDir: `${ciOut}playwright/test-results`,
  reporter: [
    ['list'],
    ['junit', { outputFile: `${ciOut}playwright/junit.xml` }],
    // Where each spec's time went, for `npm run test:profile`.
    ['../scripts/playwright-profile-reporter.ts'],
  ],
  globalSetup: './e2e/support/global-setup.ts',
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    actionTimeout: 120_000,
    navigationTimeout: 120_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
