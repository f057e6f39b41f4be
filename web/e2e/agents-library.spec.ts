/**
 * The agent library's folder tree against the real server, in an organization of its own
 * (`agents-library`, OWNER agnes): create, rename, move, reorder, put roles and skills in
 * folders, and archive, which the server refuses while a folder holds anything.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, menuAction, screenshot, signIn, test } from './support/fixtures';
import { apiAs, hub } from './support/hub';
import { pick } from './support/select';

const ORG = 'agents-library';
const API = `/api/org/${ORG}`;
const PAGE = `/o/${ORG}/agents/library`;

test.beforeAll(async () => {
  try {
    hub(['org', 'create', ORG, '--name', 'Agent Library Lab', '--owner', 'agnes', '--owner-name', 'Agnes Admin']);
  } catch (e) {
    if (!/is taken/.test(String(e))) throw e;
    return;
  }
  const owner = await apiAs('agnes');
  await owner.call('PUT', `${API}/agent-roles/triage`, { label: 'Triage', isDefault: true });
  await owner.call('PUT', `${API}/agent-skills/kb-search`, {
    version: '0.9',
    files: [{ path: 'SKILL.md', content: '---\nname: kb-search\n---\n# Knowledge base\n' }],
  });
  const archive = await owner.call('POST', `${API}/agent-library/folders`, { name: 'Archive shelf' });
  await owner.call('PUT', `${API}/agent-roles/old-bot`, { label: 'Old bot', libraryFolderId: archive.id });
});

const folderRow = (page: Page, name: string) => page.getByTestId(`row-folder-${name}`);

async function nameDialog(page: Page, title: string | RegExp, label: string, value: string, submit: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByRole('textbox', { name: label }).fill(value);
  await dialog.getByRole('button', { name: submit }).click();
  await expect(dialog).toBeHidden();
}

async function moveTo(page: Page, title: string, destination: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await pick(dialog, 'Destination folder', destination);
  await dialog.getByRole('button', { name: 'Move here' }).click();
  await expect(dialog).toBeHidden();
}

test('folders: create, rename, move, reorder; roles and skills into folders; archive only when empty', async ({
  page,
}) => {
  await signIn(page, 'agnes');
  await page.goto(PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'Agent library' })).toBeVisible();
  await expect(folderRow(page, 'Archive shelf')).toContainText('0 folders · 1 role · 0 skills');
  await expect(page.getByTestId('row-role-triage')).toBeVisible();
  await expect(page.getByTestId('row-skill-kb-search')).toBeVisible();

  // Create at the root and inside
  await page.getByRole('button', { name: 'New folder' }).click();
  await nameDialog(page, 'New folder', 'Folder name', 'Support', 'Create folder');
  await expect(folderRow(page, 'Support')).toBeVisible();
  await menuAction(page, 'folder Support', 'New folder inside');
  await nameDialog(page, 'New folder in Support', 'Folder name', 'Tier 2', 'Create folder');
  await expect(folderRow(page, 'Tier 2')).toBeVisible();
  await expect(folderRow(page, 'Support')).toContainText('1 folder · 0 roles · 0 skills');

  // Rename, then move to the root and back under Support
  await menuAction(page, 'folder Tier 2', 'Rename');
  await nameDialog(page, 'Rename Tier 2', 'New name', 'Escalations', 'Rename');
  await expect(folderRow(page, 'Escalations')).toBeVisible();
  await menuAction(page, 'folder Escalations', 'Move to…');
  await expect(page.getByRole('dialog', { name: 'Move Escalations' })).toContainText('Now in: Support');
  await expectAccessible(page);
  await screenshot(page, 'agents-library-move-dialog');
  await moveTo(page, 'Move Escalations', '/ (library root)');
  await expect(page.getByText('Moved Escalations to /')).toBeVisible();
  await expect(folderRow(page, 'Support')).toContainText('0 folders');
  await menuAction(page, 'folder Escalations', 'Move to…');
  await moveTo(page, 'Move Escalations', 'Support');
  await expect(folderRow(page, 'Support')).toContainText('1 folder');

  // A role and a skill into folders
  await menuAction(page, 'role Triage', 'Move to folder…');
  await moveTo(page, 'Move Triage', 'Support / Escalations');
  await expect(page.getByText('Moved Triage to Support / Escalations')).toBeVisible();
  await expect(folderRow(page, 'Escalations')).toContainText('1 role');
  await menuAction(page, 'skill kb-search', 'Move to folder…');
  await moveTo(page, 'Move kb-search', 'Support');
  await expect(folderRow(page, 'Support')).toContainText('1 folder · 0 roles · 1 skill');
  // The role kept everything else: still the default, as the roles page shows
  const roles = await (await apiAs('agnes')).call<{ roles: { roleId: string; isDefault: boolean }[] }>(
    'GET',
    `${API}/agent-roles`,
  );
  expect(roles.roles.find((r) => r.roleId === 'triage')).toMatchObject({ isDefault: true });

  // Reorder the root folders
  const topFolders = page.locator('[data-testid^="row-folder-"]');
  await page.getByRole('button', { name: 'Collapse all' }).click();
  await expect(topFolders.first()).toHaveAttribute('data-testid', 'row-folder-Archive shelf');
  await menuAction(page, 'folder Support', 'Move up');
  await expect(page.getByText('Moved Support up')).toBeVisible();
  await expect(topFolders.first()).toHaveAttribute('data-testid', 'row-folder-Support');

  // Archive: not offered while the folder holds something, and the menu says why
  await page.getByRole('button', { name: 'Actions for folder Archive shelf' }).click();
  const shelfMenu = page.getByRole('menu', { name: 'Actions for folder Archive shelf' });
  await expect(shelfMenu.getByRole('menuitem', { name: /^Archive…/ })).toBeDisabled();
  await expect(shelfMenu.getByRole('menuitem', { name: /^Archive…/ })).toContainText('Not empty');
  await expectAccessible(page);
  await screenshot(page, 'agents-library-archive-not-empty');
  await page.keyboard.press('Escape');

  // Empty it, then it goes
  await page.getByRole('button', { name: 'Expand Archive shelf' }).click();
  await menuAction(page, 'role Old bot', 'Move to folder…');
  await moveTo(page, 'Move Old bot', '/ (library root)');
  await expect(folderRow(page, 'Archive shelf')).toContainText('0 folders · 0 roles · 0 skills');
  await menuAction(page, 'folder Archive shelf', 'Archive…');
  await page
    .getByRole('dialog', { name: 'Archive Archive shelf?' })
    .getByRole('button', { name: 'Archive folder' })
    .click();
  await expect(folderRow(page, 'Archive shelf')).toBeHidden();
  await expect(page.getByText('Archived folder Archive shelf')).toBeVisible();
});

for (const width of [1280, 390]) {
  test(`the library page at ${width} px is accessible in both themes and captured`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await signIn(page, 'agnes');
    await page.goto(PAGE);
    await expect(page.getByRole('heading', { level: 1, name: 'Agent library' })).toBeVisible();
    await expect(page.getByRole('status', { name: 'Loading' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Expand all' }).click();
    for (const scheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await expectAccessible(page);
    }
    await screenshot(page, 'agents-library');
    const first = page.locator('[data-testid^="row-folder-"]').first();
    await first.getByRole('button', { name: /^Actions for folder/ }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'New folder' }).click();
    await expect(page.getByRole('dialog', { name: 'New folder' })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'agents-library-new-folder');
  });
}
