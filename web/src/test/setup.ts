import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';
import { server } from './server';

// The app's client asks for same-origin paths (`/api/…`), which a browser resolves against the page's
// address; Node's Request (jsdom has none of its own) refuses a relative URL. Resolve it as a browser does.
const NodeRequest = globalThis.Request;
globalThis.Request = class Request extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href) : input, init);
  }
};

// Listen now, not in beforeAll: the app's openapi-fetch client keeps the `fetch` it finds when its
// module loads, which happens when the test file is imported, before any hook runs.
server.listen({ onUnhandledRequest: 'error' });

afterEach(() => {
  cleanup();
  server.resetHandlers();
  // Notifications live in a module-level store: start each test with none.
  notifications.clean();
  notifications.cleanQueue();
});
afterAll(() => server.close());

// jsdom has no layout and none of these browser APIs, which Mantine and the virtual table use.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
window.ResizeObserver = class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
window.HTMLElement.prototype.scrollIntoView = () => {};
// The virtual table renders the rows that fit its scroll area's height: give every element one,
// so that a short list renders whole (jsdom reports 0 and the table would render no row).
Object.defineProperty(window.HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
Object.defineProperty(window.HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1000 });
