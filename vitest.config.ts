import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // Only a guard against a hang: a busy 2-core machine may take many times a quiet one's
    // time, and no test may fail for being slow. Tests wait for events, never for a clock.
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
