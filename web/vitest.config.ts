import { defineConfig } from 'vitest/config';

// Two kinds of tests, one `vitest run`:
// - unit (`*.test.ts`): the app's pure parts (sort keys, the explorer's tree, error and role helpers), in node;
// - component (`*.test.tsx`): a screen's part rendered in jsdom inside the app's providers, the network mocked at
//   fetch level by msw (src/test/), for flows with many states (refused, allowed, pending, failed).
// Whole journeys are tested end to end in a real browser (e2e/, Playwright).
export default defineConfig({
  test: {
    // No wall-clock limit a busy machine trips: a screen rendered in jsdom while other suites run
    // takes several seconds; a test that truly hangs is still stopped, after ten minutes.
    testTimeout: 600_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], environment: 'node' } },
      {
        extends: true,
        test: {
          name: 'component',
          include: ['src/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['src/test/setup.ts'],
        },
      },
    ],
  },
});
