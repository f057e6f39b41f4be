import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';

test('changes show in the audit log with their actor, and open to a before/after view', async ({ page }) => {
  await signIn(page, 'olivia');
  await page.goto('/o/acme/teams');
  await page.getByLabel('Name').fill('Audited team');
  await page.getByLabel('Slug').fill('audited-team');
  await page.getByRole('button', { name: 'Create team' }).click();
  await expect(page.getByText('Created team Audited team')).toBeVisible();

  await page.goto('/o/acme/audit');
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const first = page.getByRole('table', { name: 'Audit events' }).getByRole('row').nth(1);
  await expect(first.getByText('createTeam')).toBeVisible();
  await expect(first.getByText('Olivia Owner')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'audit');

  await first.getByRole('button', { name: /^Before and after of createTeam/ }).click();
  const dialog = page.getByRole('dialog', { name: 'createTeam: before and after' });
  await expect(dialog.getByRole('cell', { name: 'Audited team' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'audit-changes');
  await page.keyboard.press('Escape');
});

test('filters narrow the log and live in the URL; older events load on demand', async ({ page }) => {
  await signIn(page, 'olivia');
  await page.goto('/o/acme/audit');
  const table = page.getByRole('table', { name: 'Audit events' });
  await expect(table).toBeVisible();
  // The seed made more than one page of changes (40 members and more): 50 events and the header row.
  await expect(table.getByRole('row')).toHaveCount(51);
  await page.getByRole('button', { name: 'Load older events' }).click();
  await expect.poll(() => table.getByRole('row').count()).toBeGreaterThan(51);

  await page.getByLabel('Action').fill('addMember');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/action=addMember/);
  await expect(table.getByText('createTeam')).toHaveCount(0);
  await expect(table.getByText('addMember').first()).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Action')).toHaveValue('addMember');
  await expect(table.getByText('addMember').first()).toBeVisible();

  await page.getByLabel('Action').fill('noSuchAction');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('No events match.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(table.getByRole('row').nth(1)).toBeVisible();
});

test('a MEMBER is sent to My projects; the log works at 390 px', async ({ page }) => {
  await signIn(page, 'mia');
  await page.goto('/o/acme/audit');
  await expect(page).toHaveURL(/\/o\/acme\/my-projects/);

  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'olivia');
  await page.goto('/o/acme/audit');
  await expect(page.getByRole('table', { name: 'Audit events' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'audit');
});
