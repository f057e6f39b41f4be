import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { closeConsole, loginLink } from './hub';
import type { Seed } from './seed';

export { expect };

export const seedData = (): Seed => JSON.parse(process.env.HUB_E2E_SEED ?? '{}');

/** The server's address is known only after the global setup started it. */
export const test = base.extend<{ seed: Seed; consoleErrors: undefined }, { hubConsole: undefined }>({
  /** The worker's host-console runtime (login links), closed when the worker ends. */
  hubConsole: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      await use(undefined);
      await closeConsole();
    },
    { scope: 'worker', auto: true },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  baseURL: async ({}, use) => use(process.env.HUB_E2E_BASE_URL),
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  seed: async ({}, use) => use(seedData()),
  /** A React warning or an uncaught error in the page fails the test; refused requests (4xx) are expected. */
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      page.on('console', (m) => {
        if ((m.type() === 'error' || m.type() === 'warning') && !/Failed to load resource/.test(m.text()))
          errors.push(`${m.type()}: ${m.text()}`);
      });
      await use(undefined);
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
});

/** Opens a fresh login link in the page, as a person would; the server redirects to `/`. */
export async function signIn(page: Page, imOpenId: string) {
  await page.goto(await loginLink(imOpenId));
}

/** No serious or critical accessibility violation on what is on screen now. */
export async function expectAccessible(page: Page) {
  // A dialog or menu still fading in is half transparent: contrast is measured once every
  // transition has ended and each open one, with everything around it, is fully opaque (a
  // transition may not have started yet on a busy machine, so no running animation is not enough).
  await page.waitForFunction(() => {
    if (!document.getAnimations().every((a) => a.playState !== 'running')) return false;
    for (const layer of document.querySelectorAll('[role="dialog"], [role="menu"]')) {
      for (let e: Element | null = layer; e; e = e.parentElement)
        if (Number(getComputedStyle(e).opacity) < 1) return false;
    }
    return true;
  });
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')})`,
    ),
  ).toEqual([]);
}

export const SCREENSHOT_DIR = fileURLToPath(new URL('../../../.ci-out/screenshots/', import.meta.url));

/** Saves `.ci-out/screenshots/<name>-<width>.png` of the full page. */
export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${SCREENSHOT_DIR}${name}-${width}.png`, fullPage: true });
}

/**
 * Opens the actions menu of one row and picks an item in that menu. The item is looked up in the
 * menu labelled by its button: the previous row's menu may still be fading out, and its items can
 * carry the same name (after "Enable", that row offers "Disable…" too).
 */
export async function menuAction(page: Page, target: string, item: string) {
  const name = `Actions for ${target}`;
  await page.getByRole('button', { name }).click();
  await page.getByRole('menu', { name }).getByRole('menuitem', { name: item }).click();
}
