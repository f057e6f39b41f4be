import type { Page } from '@playwright/test';
import { apiAs } from './support/hub';
import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { pick, selectBox } from './support/select';

/** Several members or explorer rows at once: one request each, then what was done and what was refused. */

const summary = (page: Page) => page.getByTestId('bulk-summary');

test('members: change the role of several, revoke several, each refusal with its reason', async ({ page }) => {
  const owner = await apiAs('olivia');
  for (const name of ['Bulk Ann', 'Bulk Ben', 'Bulk Cat']) {
    const imOpenId = name.toLowerCase().replace(' ', '-');
    await owner.call('POST', '/api/org/acme/members', { imOpenId, displayName: name, role: 'MEMBER' });
  }
  // An ADMIN may not change an OWNER's role: the server refuses that one and does the rest.
  await signIn(page, 'adam');
  await page.goto('/o/acme/members');
  await page.getByLabel('Search members').fill('bulk-');
  await expect(page.getByText('3 of')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select every member shown' }).check();
  await page.getByLabel('Search members').fill('olivia');
  await page.getByRole('checkbox', { name: 'Select Olivia Owner' }).check();
  const bar = page.getByRole('region', { name: 'Selected members' });
  await expect(bar).toContainText('4 selected');
  await pick(bar, 'New role', 'ADMIN');
  await bar.getByRole('button', { name: 'Change role of 4' }).click();
  await expect(summary(page)).toContainText('Changed role to ADMIN: 3 done, 1 refused');
  await expect(summary(page)).toContainText('Done: Bulk Ann, Bulk Ben, Bulk Cat');
  await expect(summary(page).getByRole('listitem')).toContainText('Olivia Owner: ');
  await expect(summary(page).getByRole('listitem')).toContainText('OWNER');
  await expect(bar).toContainText('1 selected');
  await expectAccessible(page);

  await page.getByLabel('Search members').fill('bulk-');
  await expect(selectBox(page, 'Role of Bulk Ann')).toHaveValue('ADMIN');
  await bar.getByRole('button', { name: 'Clear selection' }).click();
  await expect(bar).toBeHidden();
  await page.getByRole('checkbox', { name: 'Select Bulk Ben' }).check();
  await page.getByRole('checkbox', { name: 'Select Bulk Cat' }).check();
  await expect(page.getByRole('checkbox', { name: 'Select every member shown' })).toBeChecked({
    indeterminate: true,
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  await screenshot(page, 'members-bulk');
  await bar.getByRole('button', { name: 'Revoke 2' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke 2 members?' });
  await dialog.getByRole('button', { name: 'Revoke 2' }).click();
  await expect(dialog).toBeHidden();
  await expect(summary(page)).toContainText('Revoked: 2 done, 0 refused');
  const table = page.getByRole('table', { name: 'Members' });
  await expect(table.getByText('Bulk Ben')).toBeHidden();
  await expect(table.getByText('Bulk Cat')).toBeHidden();
  await expect(table.getByText('Bulk Ann')).toBeVisible();
  await page.getByRole('button', { name: 'Dismiss the summary' }).click();
  await expect(summary(page)).toBeHidden();
  // The organization every other spec starts from keeps its members.
  const ann = await owner.call<{ members: Array<{ userId: string; imOpenId: string }> }>(
    'GET',
    '/api/org/acme/members',
  );
  const annId = ann.members.find((m) => m.imOpenId === 'bulk-ann')!.userId;
  await owner.call('POST', `/api/org/acme/members/${annId}/revoke`);
});

test('explorer: move several rows at once; a folder moved into itself is refused', async ({ page }) => {
  const owner = await apiAs('olivia');
  const box = await owner.call('POST', '/api/org/acme/folders', { name: 'Bulk Box' });
  const inner = await owner.call('POST', '/api/org/acme/folders', { name: 'Inner', parentId: box.id });
  const p1 = await owner.call('POST', '/api/org/acme/projects', { name: 'Bulk P1' });
  const p2 = await owner.call('POST', '/api/org/acme/projects', { name: 'Bulk P2' });
  await signIn(page, 'olivia');
  await page.goto('/o/acme/projects');
  for (const name of ['Bulk P1', 'Bulk P2', 'Bulk Box'])
    await page.getByRole('checkbox', { name: `Select ${name}` }).check();
  const bar = page.getByRole('region', { name: 'Selected rows' });
  await expect(bar).toContainText('3 selected');
  await bar.getByRole('button', { name: 'Move 3 to…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Move 3 selected rows' });
  await pick(dialog, 'Destination folder', 'Bulk Box / Inner', { search: 'Bulk Box / Inner' });
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Move here' }).click();
  await expect(dialog).toBeHidden();
  await expect(summary(page)).toContainText('Moved to Bulk Box / Inner: 2 done, 1 refused');
  await expect(summary(page).getByRole('listitem')).toContainText('Bulk Box: ');
  await expect(bar).toContainText('1 selected');
  await expect(page.getByTestId('row-project-Bulk P1')).toBeVisible();
  await expectAccessible(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  await screenshot(page, 'explorer-bulk');
  await bar.getByRole('button', { name: 'Clear selection' }).click();
  await expect(bar).toBeHidden();
  // The explorer every other spec starts from keeps its rows.
  for (const project of [p1, p2]) await owner.call('POST', `/api/org/acme/projects/${project.id}/archive`);
  for (const folder of [inner, box]) await owner.call('POST', `/api/org/acme/folders/${folder.id}/archive`);
});
