/**
 * Lists stay usable at the spec's scale: 5,000 members and 20,000 projects. The API answers are
 * replaced in the browser (page.route) so the test measures the app, not the seeding.
 */
import { expect, signIn, test } from './support/fixtures';

const at = '2026-01-01T00:00:00.000Z';

test('5,000 members: only the rows in view are rendered; search and scrolling reach any member', async ({ page }) => {
  await signIn(page, 'olivia');
  const members = Array.from({ length: 5000 }, (_, i) => ({
    userId: `u${i}`,
    imOpenId: `bulk-${String(i).padStart(4, '0')}`,
    displayName: `Bulk Person ${i}`,
    avatarUrl: null,
    role: i === 0 ? 'OWNER' : i % 10 === 0 ? 'ADMIN' : 'MEMBER',
    createdAt: at,
  }));
  await page.route('**/api/org/acme/members', (route) =>
    route.request().method() === 'GET' ? route.fulfill({ json: { members } }) : route.continue(),
  );
  await page.goto('/o/acme/members');
  await expect(page.getByText('5000 of 5000 members')).toBeVisible();
  const rendered = await page.getByRole('table', { name: 'Members' }).locator('tbody tr').count();
  expect(rendered).toBeLessThan(80);

  await page.getByLabel('Search members').fill('bulk-4321');
  await expect(page.getByRole('cell', { name: 'Bulk Person 4321 bulk-4321' })).toBeVisible();
  await page.getByLabel('Search members').fill('');
  // The filter is a deferred value: scroll only once the whole list is back, and again should the
  // rows measured on the way down have moved the bottom.
  await expect(page.getByText('5000 of 5000 members')).toBeVisible();
  const last = page.getByRole('cell', { name: 'Bulk Person 4999 bulk-4999' });
  await expect(async () => {
    await page.getByRole('region', { name: 'Members' }).evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(last).toBeVisible({ timeout: 2_000 });
  }).toPass();
});

test('20,000 projects: the explorer loads once, renders collapsed and only what is in view', async ({ page }) => {
  await signIn(page, 'olivia');
  const folders = Array.from({ length: 200 }, (_, i) => ({
    id: `f${i}`,
    name: `Folder ${String(i).padStart(3, '0')}`,
    parentId: null,
    sortKey: String((i + 1) * 1000).padStart(10, '0'),
    projectCount: 100,
    childFolderCount: 0,
  }));
  const projects = Array.from({ length: 20000 }, (_, i) => ({
    id: `p${i}`,
    name: `Project ${String(i).padStart(5, '0')}`,
    folderId: `f${i % 200}`,
    createdAt: at,
    binding: null,
  }));
  let calls = 0;
  await page.route('**/api/org/acme/explorer', (route) => {
    calls += 1;
    return route.fulfill({ json: { folders, projects } });
  });
  await page.goto('/o/acme/projects');
  await expect(page.getByText('200 folders, 20000 projects')).toBeVisible();
  const rows = page.locator('[data-testid^="row-"]');
  expect(await rows.count()).toBeLessThan(80);

  await page.getByRole('button', { name: 'Expand Folder 000' }).click();
  await expect(page.getByTestId('row-project-Project 00000')).toBeVisible();
  expect(await rows.count()).toBeLessThan(80);

  await page.getByLabel('Search folders and projects').fill('Project 19999');
  await expect(page.getByTestId('row-project-Project 19999')).toContainText('in Folder 199');
  expect(calls).toBe(1);
});
