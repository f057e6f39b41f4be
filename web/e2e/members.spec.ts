import { expect, signIn, test } from './support/fixtures';
import { pick, selectBox, selectOptions } from './support/select';

test.beforeEach(async ({ page }) => {
  await signIn(page, 'olivia');
  await page.goto('/o/acme/members');
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
});

test('search and the role filter narrow the list', async ({ page }) => {
  const table = page.getByRole('table', { name: 'Members' });
  await page.getByLabel('Search members').fill('user-00');
  await expect(page.getByText('9 of')).toBeVisible();
  await expect(table.getByRole('cell', { name: 'User 5 user-005' })).toBeVisible();
  await page.getByLabel('Search members').fill('');
  await page.getByRole('radiogroup', { name: 'Filter by role' }).getByText('ADMIN').click();
  await expect(page.getByText(/^1 of \d+ members$/)).toBeVisible();
  await expect(table.getByRole('cell', { name: 'Adam Admin adam' })).toBeVisible();
});

test('add a member with a role; a duplicate shows the server message and keeps the form', async ({ page }) => {
  await page.getByLabel('imOpenId').fill('newbie');
  await page.getByLabel('Display name (optional)').fill('Nina Newbie');
  await pick(page, 'Role', 'ADMIN');
  await page.getByRole('button', { name: 'Add member' }).click();
  await expect(page.getByText('Added Nina Newbie as ADMIN')).toBeVisible();
  await expect(page.getByLabel('imOpenId')).toHaveValue('');
  await page.getByLabel('Search members').fill('newbie');
  await expect(selectBox(page, 'Role of Nina Newbie')).toHaveValue('ADMIN');

  await page.getByLabel('imOpenId').fill('newbie');
  await page.getByRole('button', { name: 'Add member' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The member was not added' })).toBeVisible();
  await expect(page.getByLabel('imOpenId')).toHaveValue('newbie');
});

test('change a role; demoting the last OWNER is refused and explained', async ({ page }) => {
  // Names are matched exactly: the list filters on a deferred value, so User 100 may still be on screen.
  await page.getByLabel('Search members').fill('user-010');
  await pick(page, 'Role of User 10', 'ADMIN');
  await expect(page.getByText('User 10 is now ADMIN')).toBeVisible();
  await expect(selectBox(page, 'Role of User 10')).toHaveValue('ADMIN');

  await page.getByLabel('Search members').fill('olivia');
  await pick(page, 'Role of Olivia Owner', 'ADMIN');
  await expect(page.getByText('Olivia Owner is the last OWNER')).toBeVisible();
  await expect(selectBox(page, 'Role of Olivia Owner')).toHaveValue('OWNER');
  await expect(page.getByText('An organization always keeps at least one active OWNER.')).toBeVisible();
});

test('revoke a member after confirming', async ({ page }) => {
  await page.getByLabel('Search members').fill('user-020');
  await page.getByRole('button', { name: 'Revoke User 20', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke User 20?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Revoke membership' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Revoked User 20')).toBeVisible();
  await expect(page.getByText('No member matches.')).toBeVisible();
});

test('an ADMIN is offered no OWNER choices and sees why', async ({ page }) => {
  await signIn(page, 'adam');
  await page.goto('/o/acme/members');
  await expect(page.getByText('Only an OWNER can make someone an OWNER')).toBeVisible();
  await page.getByLabel('Search members').fill('olivia');
  await expect(selectBox(page, 'Role of Olivia Owner')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Revoke Olivia Owner' })).toBeDisabled();
  await page.getByLabel('Search members').fill('user-003');
  expect(await selectOptions(page, 'Role of User 3')).toEqual(['ADMIN', 'MEMBER']);
});
