/**
 * Phones and keyboards, against the real server: at 390 px each table keeps its key column and
 * its action on screen; a table that still does not fit says it scrolls; the skip link is the first
 * Tab stop and lands in the page; toasts stay at the bottom, three at most, each dismissible.
 */
import { execFileSync } from 'node:child_process';
import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test } from './support/fixtures';
import { HUB_BIN, hub, hubEnv } from './support/hub';

const run = Date.now().toString(36);
const ORG = `phone-${run}`;
const OWNER = `pia-${run}`;
const PHONE = { width: 390, height: 844 };

test.beforeAll(() => {
  hub(['org', 'create', ORG, '--name', 'Phone Lab', '--owner', OWNER, '--owner-name', 'Pia Owner']);
  execFileSync(
    process.execPath,
    [HUB_BIN, 'connection', 'platform', ORG, 'platform-llm', '--base-url', 'https://llm.platform.example/v1'],
    { env: { ...hubEnv(), HUB_PROVIDER_AUTH_TOKEN: `platform-token-${run}` }, encoding: 'utf8' },
  );
});

/** The element lies wholly inside the viewport's width: seen without scrolling sideways. */
async function expectWithinWidth(page: Page, element: Locator) {
  await expect(element).toBeVisible();
  const box = await element.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

test.describe('at 390 px', () => {
  test.use({ viewport: PHONE });

  test('Usage shows the project and its cost', async ({ page }) => {
    await signIn(page, OWNER);
    await page.goto(`/o/${ORG}/usage`);
    const table = page.getByRole('table', { name: 'Usage per project' });
    await expectWithinWidth(page, table.getByRole('columnheader', { name: /Project/ }));
    await expectWithinWidth(page, table.getByRole('columnheader', { name: /Cost \(USD\)/ }));
    await expect(table.getByRole('columnheader', { name: /Input tokens/ })).toBeHidden();
    await expectAccessible(page);
  });

  test('Capacity shows the dimension, its limit and Edit', async ({ page }) => {
    await signIn(page, OWNER);
    await page.goto(`/o/${ORG}/capacity`);
    const row = page.locator('tr[data-dimension="memberCount"]');
    await expectWithinWidth(page, row.getByRole('button', { name: /^Edit .* limit$/ }));
    await expectWithinWidth(page, row.getByText('not set'));
    await expect(page.getByRole('columnheader', { name: 'Platform ceiling' })).toBeHidden();
    await expectAccessible(page);
  });

  test('Connections shows each connection with its actions column', async ({ page }) => {
    await signIn(page, OWNER);
    await page.goto(`/o/${ORG}/connections`);
    const table = page.getByRole('table', { name: 'Provider connections' });
    await expectWithinWidth(page, table.locator('tr[data-provider="platform-llm"] td').first());
    await expectWithinWidth(page, table.getByRole('columnheader', { name: 'Actions' }));
    await expectAccessible(page);
  });

  test('Members shows each member with Revoke', async ({ page }) => {
    await signIn(page, 'olivia');
    await page.goto('/o/acme/members');
    const table = page.getByRole('table', { name: 'Members' });
    await expectWithinWidth(page, table.getByRole('columnheader', { name: 'Actions' }));
    await expectWithinWidth(page, table.getByRole('button', { name: /^Revoke/ }).first());
    await expect(table.getByRole('columnheader', { name: 'Member since' })).toBeHidden();
  });
});

test('a table wider than its place says it scrolls sideways, and which way', async ({ page }) => {
  // Wide enough for every column, narrower than the capacity table's.
  await page.setViewportSize({ width: 1000, height: 800 });
  await signIn(page, OWNER);
  await page.goto(`/o/${ORG}/capacity`);
  const region = page.getByRole('region', { name: 'Capacity limits' });
  const cue = page.getByTestId('scroll-cue');
  await expect(cue).toHaveText('More columns → — scroll the table sideways');
  await region.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect(cue).toHaveText('← More columns — scroll the table sideways');
  await page.setViewportSize({ width: 1600, height: 800 });
  await expect(cue).toHaveCount(0);
});

test('the skip link is the first Tab stop and moves focus into the page', async ({ page }) => {
  await signIn(page, OWNER);
  await page.goto(`/o/${ORG}/members`);
  await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expectWithinWidth(page, skip);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  await page.keyboard.press('Tab');
  // The next stop is inside the page, past the header and the navigation.
  expect(await page.evaluate(() => document.querySelector('main')?.contains(document.activeElement))).toBe(true);
});

test('toasts stay at the bottom, three at most, each with its close button', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signIn(page, OWNER);
  await page.goto(`/o/${ORG}/capacity`);
  const limits = [
    ['memberCount', '40'],
    ['projectCount', '41'],
    ['teamCount', '42'],
    ['folderCount', '43'],
  ] as const;
  // Four editors open, then four saves at once: four toasts asked for within the first's lifetime.
  for (const [dimension, amount] of limits) {
    const row = page.locator(`tr[data-dimension="${dimension}"]`);
    await row.getByRole('button', { name: /^Edit .* limit$/ }).click();
    await row.getByRole('textbox').fill(amount);
  }
  for (const [dimension] of limits)
    await page
      .locator(`tr[data-dimension="${dimension}"]`)
      .getByRole('button', { name: /^Save .* limit$/ })
      .click();
  const toasts = page.locator('.mantine-Notification-root');
  await expect(toasts).toHaveCount(3);
  // Measured in one step: a toast closes itself after a few seconds.
  const tops = await toasts.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top));
  for (const top of tops) expect(top).toBeGreaterThan(PHONE.height / 2);
  const first = toasts.first();
  const message = (await first.textContent()) ?? '';
  await first.getByRole('button', { name: 'Close notification' }).click();
  await expect(page.locator('.mantine-Notification-root', { hasText: message })).toHaveCount(0);
});

test('the explorer is a tree that arrow keys walk', async ({ page }) => {
  await signIn(page, 'olivia');
  await page.goto('/o/acme/projects');
  const tree = page.getByRole('tree', { name: 'Folders and projects' });
  const items = tree.getByRole('treeitem');
  const first = items.first();
  await expect(first).toHaveAttribute('aria-expanded', 'false');
  await first.focus();
  await page.keyboard.press('ArrowRight');
  await expect(first).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('ArrowDown');
  const second = items.nth(1);
  await expect(second).toBeFocused();
  await expect(second).toHaveAttribute('aria-level', '2');
  await page.keyboard.press('ArrowLeft');
  await expect(first).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(first).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('End');
  await expect(items.last()).toBeFocused();
  // One row takes Tab: the tree is one stop, not one per row.
  await expect(tree.locator('[role="treeitem"][tabindex="0"]')).toHaveCount(1);
});
