import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';

/**
 * "Who can open this" on a project page and "Projects" on a team page (seed: Billing is olivia's,
 * so she holds MANAGE; team Platform, with mia, holds READ; adam oversees as an ADMIN).
 */

for (const width of [1280, 390]) {
  test(`who can open a project, and a team's projects, at ${width} px`, async ({ page, seed }) => {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await signIn(page, 'olivia');
    await page.goto(`/o/acme/projects/${seed.projects.billing}`);
    const access = page.getByRole('table', { name: 'Who can open this' });
    const rows = access.getByTestId('access-row');
    await expect(rows.filter({ hasText: 'Olivia Owner' })).toContainText('MANAGE');
    await expect(rows.filter({ hasText: 'Olivia Owner' })).toContainText('direct · MANAGE');
    await expect(rows.filter({ hasText: 'Olivia Owner' })).toContainText('org admin · OWNER');
    await expect(rows.filter({ hasText: 'Mia Member' })).toContainText('team Platform · READ');
    await expect(rows.filter({ hasText: 'Adam Admin' })).toContainText('org admin · ADMIN');
    // The strongest level first.
    await expect(rows.first()).toContainText('Olivia Owner');
    await expectAccessible(page);
    await screenshot(page, 'who-can-open-this');

    await page.goto(`/o/acme/teams/${seed.teams.platform}`);
    const projects = page.getByRole('table', { name: 'Team projects' });
    await expect(projects.getByRole('row', { name: /Billing READ/ })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'team-projects');
    await projects.getByRole('link', { name: 'Billing' }).click();
    await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  });
}

test('a member with a grant sees who can open the project', async ({ page, seed }) => {
  await signIn(page, 'mia');
  await page.goto(`/o/acme/projects/${seed.projects.billing}`);
  const access = page.getByRole('table', { name: 'Who can open this' });
  await expect(access.getByTestId('access-row').filter({ hasText: 'Mia Member' })).toContainText('READ');
  await expectAccessible(page);
});

test('while loading, then on an error, the lists say so', async ({ page, seed }) => {
  await signIn(page, 'olivia');
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/access?*', async (route) => {
    await held;
    await route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'internal_error', message: 'The access list is unavailable.' } }),
    });
  });
  await page.route('**/teams/*/projects?*', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'internal_error', message: 'The team projects are unavailable.' } }),
    }),
  );
  await page.goto(`/o/acme/projects/${seed.projects.billing}`);
  await expect(page.getByRole('table', { name: 'Who can open this' })).toContainText('Loading…');
  release();
  await expect(page.getByRole('alert').filter({ hasText: 'The access list is unavailable.' })).toBeVisible();
  await expectAccessible(page);
  await page.goto(`/o/acme/teams/${seed.teams.platform}`);
  await expect(page.getByRole('alert').filter({ hasText: 'The team projects are unavailable.' })).toBeVisible();
});
