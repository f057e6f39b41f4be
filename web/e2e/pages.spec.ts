/**
 * Every page at 1280 px and 390 px wide: axe finds no serious or critical violation, and a
 * full-page screenshot goes to .ci-out/screenshots/<page>-<width>.png.
 */
import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import type { Seed } from './support/seed';

// Each case only reads organization acme: the cases spread over both workers instead of making
// this, the longest spec, one worker's tail.
test.describe.configure({ mode: 'parallel' });

type PageCase = { name: string; as: string | null; path: (seed: Seed) => string; ready: string };

const PAGES: PageCase[] = [
  { name: 'signed-out', as: null, path: () => '/', ready: 'Org Admin' },
  { name: 'members', as: 'olivia', path: () => '/o/acme/members', ready: 'Members' },
  { name: 'teams', as: 'olivia', path: () => '/o/acme/teams', ready: 'Teams' },
  { name: 'team', as: 'olivia', path: (s) => `/o/acme/teams/${s.teams.platform}`, ready: 'Platform' },
  { name: 'projects', as: 'olivia', path: () => '/o/acme/projects', ready: 'Projects' },
  { name: 'project', as: 'olivia', path: (s) => `/o/acme/projects/${s.projects.billing}`, ready: 'Billing' },
  {
    name: 'project-admin-readonly',
    as: 'adam',
    path: (s) => `/o/acme/projects/${s.projects.billing}`,
    ready: 'Billing',
  },
  { name: 'my-projects', as: 'olivia', path: () => '/o/acme/my-projects', ready: 'My projects' },
  { name: 'settings', as: 'olivia', path: () => '/o/acme/settings', ready: 'Settings' },
  { name: 'member-my-projects', as: 'mia', path: () => '/o/acme/my-projects', ready: 'My projects' },
  { name: 'member-my-usage', as: 'mia', path: () => '/o/acme/my-usage', ready: 'My usage' },
  { name: 'member-project', as: 'mia', path: (s) => `/o/acme/projects/${s.projects.billing}`, ready: 'Billing' },
];

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width > 600 ? 800 : 844 } });
    for (const pageCase of PAGES) {
      test(`${pageCase.name} is accessible and captured`, async ({ page, seed }) => {
        if (pageCase.as) await signIn(page, pageCase.as);
        await page.goto(pageCase.path(seed));
        await expect(page.getByRole('heading', { level: 1, name: pageCase.ready })).toBeVisible();
        await expect(page.getByRole('status', { name: 'Loading' })).toHaveCount(0);
        await expectAccessible(page);
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
          if (scheme === 'dark') await expectAccessible(page);
        }
        await page.emulateMedia({ colorScheme: 'light' });
        await screenshot(page, pageCase.name);
      });
    }
  });
}

test('the navigation opens from the burger at 390 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'olivia');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Teams' })).not.toBeInViewport();
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await nav.getByRole('link', { name: 'Teams' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Teams' })).toBeVisible();
  await screenshot(page, 'teams-after-burger');
});

test('dialogs and menus are accessible too', async ({ page }) => {
  await signIn(page, 'olivia');
  await page.goto('/o/acme/projects');
  await page.getByRole('button', { name: 'Actions for Engineering' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('menuitem', { name: 'Move to…' }).click();
  await expect(page.getByRole('dialog', { name: 'Move Engineering' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'projects-move-dialog');
  await page.keyboard.press('Escape');

  await page.goto('/o/acme/members');
  await page.getByLabel('Search members').fill('user-001');
  // Exact: the list filters on a deferred value, so User 10 to 19 may still be on screen.
  await page.getByRole('button', { name: 'Revoke User 1', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Revoke User 1?' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'members-revoke-dialog');
});
