/**
 * The Capacity screen against the real server, in an organization of its own: all 23 dimensions
 * with their units, inline edits in a unit of choice, clearing to the ceiling, and the server's
 * 422 reasons shown in the row they belong to.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { hub } from './support/hub';
import { pick, selectBox } from './support/select';

const run = Date.now().toString(36);
const ORG = `cap-${run}`;
const OWNER = `cara-${run}`;

test.beforeAll(() => {
  hub(['org', 'create', ORG, '--name', 'Capacity Lab', '--owner', OWNER, '--owner-name', 'Cara Owner']);
});

test.beforeEach(async ({ page }) => {
  await signIn(page, OWNER);
  await page.goto(`/o/${ORG}/capacity`);
  await expect(page.getByRole('heading', { name: 'Capacity', level: 1 })).toBeVisible();
});

const row = (page: Page, dimension: string) => page.locator(`tr[data-dimension="${dimension}"]`);
/** The row's cells: dimension, ceiling, organization limit, effective, in use, actions. */
const cell = (page: Page, dimension: string, index: number) => row(page, dimension).locator('td').nth(index);

async function setLimit(page: Page, label: string, amount: string, unit?: string) {
  await page.getByRole('button', { name: `Edit ${label} limit` }).click();
  await page.getByRole('textbox', { name: `${label} limit` }).fill(amount);
  if (unit) await pick(page, `${label} unit`, unit);
  await page.getByRole('button', { name: `Save ${label} limit` }).click();
}

test("all 23 dimensions with ceiling, limit and effective in their units; the ceiling is the operator's", async ({
  page,
}) => {
  await expect(page.getByText("The platform ceiling is the operator's")).toBeVisible();
  await expect(page.locator('tr[data-dimension]')).toHaveCount(23);
  // The suite's server raises the request-rate ceiling (HUB_CEILING_REQUEST_RATE=100000); the rest are built in.
  await expect(cell(page, 'requestRate', 1)).toHaveText('100,000 / min');
  await expect(cell(page, 'requestBodySize', 1)).toHaveText('8 MiB');
  await expect(cell(page, 'fileSize', 1)).toHaveText('5 MiB');
  await expect(cell(page, 'organizationStorage', 1)).toHaveText('100 GiB');
  await expect(cell(page, 'admissionQueueWait', 1)).toHaveText('5 min');
  await expect(cell(page, 'runWallTime', 1)).toHaveText('1 h');
  await expect(cell(page, 'processCpu', 1)).toHaveText('2,000 millicores');
  await expect(cell(page, 'memberCount', 1)).toHaveText('10,000');
  await expect(cell(page, 'memberCount', 2)).toHaveText('not set');
  await expect(cell(page, 'memberCount', 3)).toHaveText('10,000the ceiling');
  await expect(cell(page, 'requestBodySize', 0)).toContainText('floor 64 KiB');
  await expect(page.getByRole('button', { name: 'Clear Members limit' })).toBeDisabled();
});

test('set a limit inline, then clear it back to the ceiling', async ({ page }) => {
  await setLimit(page, 'Members', '40');
  await expect(page.getByText('Members: organization limit set to 40')).toBeVisible();
  await expect(cell(page, 'memberCount', 2)).toHaveText('40');
  await expect(cell(page, 'memberCount', 3)).toHaveText('40your limit');

  await setLimit(page, 'Process memory', '2', 'GiB');
  await expect(cell(page, 'processMemory', 2)).toHaveText('2 GiB');
  await setLimit(page, 'Admission queue wait', '2', 'min');
  await expect(cell(page, 'admissionQueueWait', 2)).toHaveText('2 min');
  await expect(cell(page, 'admissionQueueWait', 3)).toHaveText('2 minyour limit');

  // Editing starts from the current limit in its largest whole unit.
  await page.getByRole('button', { name: 'Edit Process memory limit' }).click();
  await expect(page.getByRole('textbox', { name: 'Process memory limit' })).toHaveValue('2');
  await expect(selectBox(page, 'Process memory unit')).toHaveValue('GiB');
  await page.getByRole('textbox', { name: 'Process memory limit' }).press('Escape');
  await expect(page.getByRole('textbox', { name: 'Process memory limit' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Clear Members limit' }).click();
  await expect(page.getByText('Members: organization limit cleared; the platform ceiling applies')).toBeVisible();
  await expect(cell(page, 'memberCount', 2)).toHaveText('not set');
  await expect(cell(page, 'memberCount', 3)).toHaveText('10,000the ceiling');
  await expect(page.getByRole('button', { name: 'Clear Members limit' })).toBeDisabled();
});

test("the server's 422 reasons show in the row they belong to, and nothing changes", async ({ page }) => {
  await setLimit(page, 'Skill file size', '6', 'MiB');
  const above = page.getByRole('alert').filter({ hasText: 'Skill file size: Above the platform ceiling' });
  await expect(above).toContainText('fileSize 6291456 is above its platform ceiling of 5242880. Nothing was changed.');
  await expect(row(page, 'fileSize').locator('+ tr').getByRole('alert')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Skill file size limit' })).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await screenshot(page, 'capacity-refused-row');

  await setLimit(page, 'Request body size', '32', 'KiB');
  const below = page.getByRole('alert').filter({ hasText: 'Request body size: Below the floor' });
  await expect(below).toContainText('requestBodySize 32768 is below its floor of 65536');

  // Both rows keep their editor and their reason; a corrected value saves and clears its reason.
  await page.getByRole('textbox', { name: 'Request body size limit' }).fill('1');
  await pick(page, 'Request body size unit', 'MiB');
  await page.getByRole('button', { name: 'Save Request body size limit' }).click();
  await expect(below).toHaveCount(0);
  await expect(cell(page, 'requestBodySize', 2)).toHaveText('1 MiB');
  await expect(above).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(cell(page, 'fileSize', 2)).toHaveText('not set');

  await page.reload();
  await expect(cell(page, 'fileSize', 2)).toHaveText('not set');
  await expect(cell(page, 'requestBodySize', 2)).toHaveText('1 MiB');
});

test('what is in use, against the effective limit; a limit below it is saved with a warning', async ({ page }) => {
  // The organization has its owner and nothing else yet.
  await expect(cell(page, 'memberCount', 4)).toContainText('1 of 10,000');
  await expect(page.getByRole('progressbar', { name: 'Members: 1 in use of 10000' })).toBeAttached();
  await expect(cell(page, 'processMemory', 4)).toHaveText('not counted here');
  await expect(page.getByText('Used beyond the limit')).toHaveCount(0);

  await setLimit(page, 'Members', '0');
  await expect(page.getByText('memberCount: 1 in use, above the limit of 0').first()).toBeVisible();
  await expect(cell(page, 'memberCount', 2)).toHaveText('0');
  await expect(cell(page, 'memberCount', 4)).toContainText('over the limit');
  await expect(page.getByRole('alert').filter({ hasText: 'Used beyond the limit' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'capacity-in-use');

  await page.getByRole('button', { name: 'Clear Members limit' }).click();
  await expect(cell(page, 'memberCount', 4)).toContainText('1 of 10,000');
  await expect(page.getByText('Used beyond the limit')).toHaveCount(0);
});

for (const width of [1280, 390]) {
  test(`the page at ${width} px is accessible in both themes and captured`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await page.reload();
    await expect(page.locator('tr[data-dimension]')).toHaveCount(23);
    // The table scrolls inside its own region; the page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    if (width < 600) {
      const region = page.getByRole('region', { name: 'Capacity limits' });
      expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    }
    for (const scheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await expectAccessible(page);
      await screenshot(page, scheme === 'light' ? 'capacity' : 'capacity-dark');
    }
  });
}
