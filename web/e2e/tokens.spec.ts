import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';

test('a member creates a token, sees it once, uses it, and revokes it', async ({ page, baseURL }) => {
  await signIn(page, 'mia');
  await page.goto('/o/acme/tokens');
  await expect(page.getByRole('heading', { name: 'API tokens', level: 1 })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'tokens');

  // Without a scope the form says what is missing and sends nothing.
  await page.getByLabel('Name').fill('nightly export');
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'at least one scope' })).toBeVisible();

  await page.getByRole('radiogroup', { name: 'Organization' }).getByText('Read', { exact: true }).click();
  await page.getByRole('radiogroup', { name: 'Projects' }).getByText('Read & write').click();
  await page.getByRole('button', { name: 'Create token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Token “nightly export” created' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'tokens-created');
  const token = (await dialog.getByTestId('new-token').textContent())?.trim() ?? '';
  expect(token).toMatch(/^hubt_[a-z2-7]{16}_[0-9A-Za-z]{43}$/);
  await expect(dialog.getByRole('button', { name: 'Copy token' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  // Shown once: the page holds only its prefix from now on.
  await expect(page.getByText(token)).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: 'nightly export' });
  await expect(row.getByText(`${token.slice(0, 12)}…`)).toBeVisible();
  await expect(row.getByText('org:read')).toBeVisible();
  await expect(row.getByText('projects:write')).toBeVisible();

  const used = await page.request.get(`${baseURL}/api/org/acme/my-projects`, {
    headers: { authorization: `Bearer ${token}`, cookie: '' },
  });
  expect(used.status()).toBe(200);

  await row.getByRole('button', { name: 'Revoke nightly export' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke “nightly export”?' });
  await confirm.getByRole('button', { name: 'Revoke token' }).click();
  await expect(page.getByText('Revoked nightly export')).toBeVisible();
  await expect(row.getByText('Revoked', { exact: true })).toBeVisible();
  const refused = await page.request.get(`${baseURL}/api/org/acme/my-projects`, {
    headers: { authorization: `Bearer ${token}`, cookie: '' },
  });
  expect(refused.status()).toBe(401);
});

test('an org admin sees every member’s tokens, with who made them', async ({ page }) => {
  await signIn(page, 'mia');
  await page.goto('/o/acme/tokens');
  await page.getByLabel('Name').fill('mia ci');
  await page.getByRole('radiogroup', { name: 'Teams' }).getByText('Read', { exact: true }).click();
  await page.getByRole('button', { name: 'Create token' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();

  await signIn(page, 'adam');
  await page.goto('/o/acme/tokens');
  const row = page.getByRole('row').filter({ hasText: 'mia ci' });
  await expect(row.getByRole('cell', { name: 'Mia Member' })).toBeVisible();
});

test('the tokens page works at 390 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'olivia');
  await page.goto('/o/acme/tokens');
  await expect(page.getByRole('button', { name: 'Create token' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'tokens');
});
