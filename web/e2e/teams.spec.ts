import { expect, signIn, test } from './support/fixtures';
import { pick } from './support/select';

test('create a team, rename and describe it, manage its members, archive it', async ({ page }) => {
  await signIn(page, 'olivia');
  await page.goto('/o/acme/teams');
  await expect(
    page.getByRole('table', { name: 'Teams' }).getByRole('cell', { name: 'Platform platform' }),
  ).toBeVisible();

  await page.getByLabel('Name').fill('Data Science');
  await expect(page.getByLabel('Slug')).toHaveValue('data-science');
  await page.getByLabel('Description').fill('Models and metrics');
  await page.getByRole('button', { name: 'Create team' }).click();
  await expect(page.getByText('Created team Data Science')).toBeVisible();

  // A taken slug: the server's message, the form kept.
  await page.getByLabel('Name').fill('Data Science');
  await page.getByRole('button', { name: 'Create team' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The team was not created' })).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('Data Science');

  await page.getByRole('button', { name: 'Edit Data Science' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit team Data Science' });
  await edit.getByLabel('Name').fill('Data');
  await edit.getByLabel('Description').fill('Numbers people');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole('cell', { name: 'Numbers people' })).toBeVisible();

  await page.getByRole('link', { name: 'Data', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Data', level: 1 })).toBeVisible();
  await expect(page.getByText('No member in this team yet.')).toBeVisible();

  // Add by choosing an organization member…
  await pick(page, 'Organization member', 'User 7 (user-007)', { search: 'User 7' });
  await page.getByRole('button', { name: 'Add to team' }).click();
  await expect(page.getByText('Added User 7 to Data')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'user-007' })).toBeVisible();
  // …or by imOpenId.
  await page.getByText('By imOpenId').click();
  await page.getByRole('textbox', { name: 'imOpenId' }).fill('mia');
  await page.getByRole('button', { name: 'Add to team' }).click();
  await expect(page.getByRole('cell', { name: 'mia', exact: true })).toBeVisible();
  // Someone who is not a member: the server says so.
  await page.getByRole('textbox', { name: 'imOpenId' }).fill('stranger');
  await page.getByRole('button', { name: 'Add to team' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not added' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'imOpenId' })).toHaveValue('stranger');

  await page.getByRole('button', { name: 'Remove User 7 from the team' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove from team' }).click();
  await expect(page.getByRole('cell', { name: 'user-007' })).toBeHidden();

  await page.getByRole('link', { name: 'Teams' }).first().click();
  await expect(page.getByRole('cell', { name: /^1$/ }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Archive Data' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Archive team' }).click();
  await expect(page.getByText('Archived team Data')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Data', exact: true })).toBeHidden();
});
