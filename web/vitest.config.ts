import { defineConfig } from 'vitest/config';

// Unit tests of the app's pure parts (sort keys, the explorer's tree, error and role helpers).
// The screens are tested end to end in a real browser (e2e/, Playwright).
export default defineConfig({
  test: { include: ['src/**/*.test.ts'], environment: 'node' },
});
