import { expect, signIn, test } from './support/fixtures';
import { pick } from './support/select';

test('a signed-out visitor is told how to get a login link', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Org Admin' })).toBeVisible();
  await expect(page.getByText('hub login-link <your imOpenId>')).toBeVisible();
});

test('a login link signs the owner in and lands on the first organization', async ({ page }) => {
  await signIn(page, 'olivia');
  await expect(page).toHaveURL(/\/o\/acme\/members$/);
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
  // The person's own name is the identity provider's (when a spec before signed her in through it),
  // else her imOpenId; never the name an organization gave her.
  await expect(page.getByTestId('signed-in-user')).toHaveText(/^(olivia|Olivia Owner)$/);
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const item of ['Members', 'Teams', 'Projects', 'My projects', 'Settings']) {
    await expect(nav.getByRole('link', { name: item, exact: true })).toBeVisible();
  }
});

test('deep links survive a reload, the org switcher changes organization, sign out ends the session', async ({
  page,
  seed,
}) => {
  await signIn(page, 'olivia');
  await page.goto(`/o/acme/projects/${seed.projects.billing}`);
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();

  await pick(page, 'Organization', 'Beta Labs');
  await expect(page).toHaveURL(/\/o\/beta\/members$/);
  await expect(page.getByRole('cell', { name: 'Olivia Owner olivia' })).toBeVisible();

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByText('You are not signed in.')).toBeVisible();
  await page.goto('/o/acme/members');
  await expect(page.getByText('You are not signed in.')).toBeVisible();
});

test('the theme toggle switches between light and dark', async ({ page }) => {
  await signIn(page, 'olivia');
  const html = page.locator('html');
  const before = await html.getAttribute('data-mantine-color-scheme');
  const next = before === 'dark' ? 'light' : 'dark';
  await page.getByRole('button', { name: `Switch to ${next} theme` }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', next);
});
