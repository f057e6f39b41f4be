import { readFile } from 'node:fs/promises';
import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { apiAs } from './support/hub';

test('each change reads as a sentence with names', async ({ page }) => {
  await signIn(page, 'olivia');
  await page.goto('/o/acme/teams');
  await page.getByLabel('Name').fill('Audited team');
  await page.getByLabel('Slug').fill('audited-team');
  await page.getByRole('button', { name: 'Create team' }).click();
  await expect(page.getByText('Created team Audited team')).toBeVisible();

  await page.goto('/o/acme/audit');
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Audit events' });
  const first = table.getByRole('row').nth(1);
  await expect(first.getByText('Olivia Owner created team Audited team')).toBeVisible();
  await expect(first.getByText('createTeam')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'audit');
});

test('an event opens to only what changed', async ({ page }) => {
  const owner = await apiAs('olivia');
  const team = await owner.call('POST', '/api/org/acme/teams', { slug: 'diffed-team', name: 'Diffed team' });
  await owner.call('PATCH', `/api/org/acme/teams/${team.id}`, { name: 'Diffed again' });
  await signIn(page, 'olivia');
  await page.goto('/o/acme/audit?action=updateTeam');
  const sentence = 'Olivia Owner renamed team Diffed team to Diffed again';
  await page.getByRole('button', { name: `Show changes: ${sentence}` }).click();
  const diff = page.getByRole('table', { name: `Changes: ${sentence}` });
  await expect(diff.getByRole('row', { name: /name Diffed team Diffed again/ })).toBeVisible();
  // Only what changed: the slug stayed, so it is not listed.
  await expect(diff.getByRole('row', { name: /slug/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Hide changes: ${sentence}` })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await expectAccessible(page);
  await screenshot(page, 'audit-changes');
});

test('a capacity change shows only the dimension it moved', async ({ page }) => {
  // A limit no other test sets, so this change is the log's newest capacity event.
  const owner = await apiAs('olivia');
  await owner.call('PUT', '/api/org/acme/capacity-policy', { limits: { folderCount: 4321 } });
  await signIn(page, 'olivia');
  await page.goto('/o/acme/audit?action=updateCapacityPolicy');
  const first = page.getByRole('table', { name: 'Audit events' }).getByRole('row').nth(1);
  await expect(first.getByText('Olivia Owner changed the capacity limits (folderCount)')).toBeVisible();
  await first.getByRole('button', { name: /^Show changes/ }).click();
  const diff = page.getByRole('table', { name: /^Changes: / });
  await expect(diff.getByRole('row', { name: /dimensions › folderCount › organizationLimit .* 4321/ })).toBeVisible();
  await expect(diff.getByRole('row', { name: /memberCount/ })).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, 'audit-capacity-diff');
});

test('filters narrow the log and live in the URL; older events load on demand; the window exports', async ({
  page,
}) => {
  await signIn(page, 'olivia');
  await page.goto('/o/acme/audit');
  const table = page.getByRole('table', { name: 'Audit events' });
  await expect(table).toBeVisible();
  // The seed made more than one page of changes (40 members and more): 50 events and the header row.
  await expect(table.getByRole('row')).toHaveCount(51);
  await page.getByRole('button', { name: 'Load older events' }).click();
  await expect.poll(() => table.getByRole('row').count()).toBeGreaterThan(51);

  const picker = page.getByRole('combobox', { name: 'Action' });
  await picker.click();
  await picker.fill('addMem');
  await page.getByRole('option', { name: 'addMember', exact: true }).click();
  await expect(page).toHaveURL(/action=addMember/);
  await expect(table.getByText('createTeam')).toHaveCount(0);
  await expect(table.getByText('addMember').first()).toBeVisible();
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Action' })).toHaveValue('addMember');
  await expect(table.getByText('addMember').first()).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export NDJSON' }).click(),
  ]);
  const lines = (await readFile((await download.path())!, 'utf8')).trim().split('\n');
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(JSON.parse(line)).toMatchObject({ action: 'addMember' });

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/action=/);
  await expect(table.getByRole('row').nth(1)).toBeVisible();
});

test('a failed load shows the server message', async ({ page }) => {
  await signIn(page, 'olivia');
  await page.route('**/api/org/acme/audit-events?*', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'unavailable', message: 'The audit log is resting.' } }),
    }),
  );
  await page.goto('/o/acme/audit');
  await expect(page.getByText('The audit log is resting.')).toBeVisible();
  await expectAccessible(page);
});

test('a MEMBER is sent to My projects; the log works at 390 px', async ({ page }) => {
  await signIn(page, 'mia');
  await page.goto('/o/acme/audit');
  await expect(page).toHaveURL(/\/o\/acme\/my-projects/);

  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'olivia');
  await page.goto('/o/acme/audit');
  const table = page.getByRole('table', { name: 'Audit events' });
  await expect(table).toBeVisible();
  const first = table.getByRole('row').nth(1);
  await first.getByRole('button', { name: /^Show changes/ }).click();
  await expect(page.getByRole('table', { name: /^Changes: / })).toBeVisible();
  // Nothing scrolls sideways: the sentence wraps within the phone's width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await screenshot(page, 'audit');
});
