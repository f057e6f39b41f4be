import { setupServer } from 'msw/node';

/**
 * The network of the component tests: msw answers the app's own fetch calls, each test adding the
 * handlers it needs with `server.use(...)`. A request no handler answers fails the test.
 */
export const server = setupServer();

/** A response the test releases when it has looked at the pending state. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}
