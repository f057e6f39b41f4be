import type { Page } from '@playwright/test';
import { apiAs, hub } from './support/hub';
import { expect, menuAction, signIn, test } from './support/fixtures';
import { pick, selectBox } from './support/select';

const row = (page: Page, kind: 'folder' | 'project', name: string) => page.getByTestId(`row-${kind}-${name}`);

async function nameDialog(page: Page, title: string | RegExp, label: string, value: string, submit: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByLabel(label).fill(value);
  await dialog.getByRole('button', { name: submit }).click();
  await expect(dialog).toBeHidden();
}

test('the explorer: create, rename, move by dialog and by drag and drop, reorder, archive', async ({ page }) => {
  await signIn(page, 'olivia');
  await page.goto('/o/acme/projects');
  await expect(row(page, 'folder', 'Engineering')).toContainText('1 folder · 0 projects');

  await page.getByRole('button', { name: 'New folder' }).click();
  await nameDialog(page, 'New folder', 'Folder name', 'Ops', 'Create folder');
  await expect(row(page, 'folder', 'Ops')).toBeVisible();
  await page.getByRole('button', { name: 'New folder' }).click();
  await nameDialog(page, 'New folder', 'Folder name', 'Scratch', 'Create folder');

  await menuAction(page, 'Ops', 'New project inside');
  await nameDialog(page, /New project in Ops/, 'Project name', 'Runbook', 'Create project');
  await expect(row(page, 'project', 'Runbook')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Collapse Ops' })).toHaveAttribute('aria-expanded', 'true');

  await page.getByRole('button', { name: 'New project' }).click();
  await nameDialog(page, 'New project', 'Project name', 'Loose', 'Create project');
  await menuAction(page, 'Loose', 'Rename');
  await nameDialog(page, 'Rename Loose', 'New name', 'Loose End', 'Rename');
  await expect(row(page, 'project', 'Loose End')).toBeVisible();

  // Move to… dialog
  await menuAction(page, 'Loose End', 'Move to…');
  const move = page.getByRole('dialog', { name: 'Move Loose End' });
  await pick(move, 'Destination folder', 'Ops', { search: 'Ops' });
  await move.getByRole('button', { name: 'Move here' }).click();
  await expect(move).toBeHidden();
  await expect(page.getByText('Moved Loose End to Ops')).toBeVisible();
  await expect(row(page, 'folder', 'Ops')).toContainText('0 folders · 2 projects');

  // Drag and drop onto a folder, then back to the top level
  await page.getByRole('button', { name: 'New project' }).click();
  await nameDialog(page, 'New project', 'Project name', 'Dragged', 'Create project');
  await row(page, 'project', 'Dragged').dragTo(row(page, 'folder', 'Scratch'));
  await expect(page.getByText('Moved Dragged to Scratch')).toBeVisible();
  await expect(row(page, 'folder', 'Scratch')).toContainText('0 folders · 1 project');
  await row(page, 'project', 'Dragged').dragTo(page.getByTestId('drop-root'));
  await expect(page.getByText('Moved Dragged to /')).toBeVisible();
  await expect(row(page, 'folder', 'Scratch')).toContainText('0 folders · 0 projects');
  // A folder dragged into another folder
  await row(page, 'folder', 'Scratch').dragTo(row(page, 'folder', 'Ops'));
  await expect(page.getByText('Moved Scratch to Ops')).toBeVisible();
  await expect(row(page, 'folder', 'Ops')).toContainText('1 folder · 2 projects');

  // Reorder by sort key: Ops before Engineering at the top level
  const topFolders = page.locator('[data-testid^="row-folder-"]');
  await page.getByRole('button', { name: 'Collapse all' }).click();
  await expect(topFolders.first()).toHaveAttribute('data-testid', 'row-folder-Engineering');
  await menuAction(page, 'Ops', 'Move up');
  await expect(page.getByText('Moved Ops up')).toBeVisible();
  await expect(topFolders.first()).toHaveAttribute('data-testid', 'row-folder-Ops');
  await page.reload();
  await expect(topFolders.first()).toHaveAttribute('data-testid', 'row-folder-Ops');

  // Archive: a folder that still holds things cannot be archived, and the menu says why
  const opsMenu = page.getByRole('menu', { name: 'Actions for Ops' });
  await page.getByRole('button', { name: 'Actions for Ops' }).click();
  await expect(opsMenu.getByRole('menuitem', { name: /^Archive/ })).toBeDisabled();
  await expect(opsMenu.getByRole('menuitem', { name: /^Archive/ })).toContainText('Not empty');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Expand Ops' }).click();
  await menuAction(page, 'Runbook', 'Archive');
  await page.getByRole('dialog', { name: 'Archive Runbook?' }).getByRole('button', { name: 'Archive' }).click();
  await expect(row(page, 'project', 'Runbook')).toBeHidden();
  await menuAction(page, 'Scratch', 'Archive');
  await page.getByRole('dialog', { name: 'Archive Scratch?' }).getByRole('button', { name: 'Archive' }).click();
  await expect(row(page, 'folder', 'Scratch')).toBeHidden();

  // Search finds projects anywhere, with their path
  await page.getByLabel('Search folders and projects').fill('Billing');
  await expect(row(page, 'project', 'Billing')).toContainText('in Engineering / Backend');
});

test('the project page: detail, binding, sessions, team access, rename and archive', async ({ page, seed }) => {
  const owner = await apiAs('olivia');
  const launch = await owner.call('POST', '/api/org/acme/projects', {
    name: 'Launch',
    folderId: seed.folders.engineering,
  });
  await owner.call('PUT', `/api/org/acme/projects/${launch.id}/team-access`, {
    teamId: seed.teams.design,
    role: 'READ',
  });
  hub(['project', 'bind', 'acme', launch.id, 'chat-launch']);

  await signIn(page, 'olivia');
  await page.goto(`/o/acme/projects/${launch.id}`);
  await expect(page.getByRole('heading', { name: 'Launch', level: 1 })).toBeVisible();
  await expect(page.getByText('Engineering', { exact: true })).toBeVisible();
  await expect(page.getByText('Olivia Owner (olivia)')).toBeVisible();
  await expect(page.getByText(/workspaces/)).toBeVisible();
  await expect(page.getByText('chat-launch')).toBeVisible();
  await expect(page.getByTestId('manage-required')).toHaveCount(0);

  await page.getByRole('button', { name: 'Archive binding' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Archive binding' }).click();
  await expect(page.getByText(/No chat bound/)).toBeVisible();

  await expect(page.getByText('No open session.')).toBeVisible();
  await pick(page, 'Show at most', '10');
  await expect(page.getByText('No open session.')).toBeVisible();

  // Team access: grant, change, revoke
  const access = page.getByRole('table', { name: 'Team access' });
  await expect(access.getByRole('cell', { name: 'Design design' })).toBeVisible();
  await pick(page, 'Team', /^Platform \(platform\)/, { search: 'Platform' });
  await pick(page, 'Access', 'EDIT');
  await page.getByRole('button', { name: 'Grant access' }).click();
  await expect(page.getByText('Platform has EDIT on Launch')).toBeVisible();
  await expect(selectBox(page, 'Access of Platform')).toHaveValue('EDIT');
  await pick(page, 'Access of Platform', 'MANAGE');
  await expect(page.getByText('Platform now has MANAGE')).toBeVisible();
  await page.getByRole('button', { name: 'Revoke access of Design' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke access' }).click();
  await expect(access.getByRole('cell', { name: 'Design design' })).toBeHidden();

  // Rename, then archive: the page stays readable
  await page.getByRole('button', { name: 'Rename' }).click();
  await nameDialog(page, 'Rename Launch', 'New name', 'Launch 2', 'Rename');
  await expect(page.getByRole('heading', { name: 'Launch 2', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Archive project' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click();
  await expect(page.getByText(/^Archived \d/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Rename' })).toBeDisabled();
});

test('sessions: newest first as the server sends them, at most the chosen limit', async ({ page, seed }) => {
  const limits: string[] = [];
  await page.route('**/api/org/acme/projects/*/sessions?*', (route) => {
    const limit = new URL(route.request().url()).searchParams.get('limit') ?? '';
    limits.push(limit);
    const sessions = Array.from({ length: Math.min(Number(limit), 3) }, (_, i) => ({
      id: `s${i}`,
      provider: 'anthropic',
      roleId: 'default',
      model: 'claude-sonnet-4-5',
      title: i === 2 ? null : `Session ${i}`,
      runCount: 10 - i,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: `2026-01-0${3 - i}T00:00:00.000Z`,
    }));
    return route.fulfill({ json: { sessions } });
  });
  await signIn(page, 'olivia');
  await page.goto(`/o/acme/projects/${seed.projects.website}`);
  const table = page.getByRole('table', { name: 'Sessions' });
  await expect(table.getByRole('cell', { name: 'Session 0' })).toBeVisible();
  await expect(table.getByRole('cell', { name: 'untitled' })).toBeVisible();
  await expect(table.getByRole('cell', { name: 'anthropic / claude-sonnet-4-5' }).first()).toBeVisible();
  await pick(page, 'Show at most', '200');
  await expect.poll(() => limits).toContain('200');
  expect(limits[0]).toBe('50');
});
