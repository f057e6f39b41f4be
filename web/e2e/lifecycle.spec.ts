import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { apiAs, hub } from './support/hub';
import { pick } from './support/select';

/**
 * The organization's life, in organizations of this spec's own (made here through the host
 * console): a revoke that leaves a project without a manager, the filter that lists such projects
 * and the operator's force-release; the rename, the ownership offered and accepted, the deletion
 * and its restore, and leaving from the profile.
 */

async function organization(slug: string, owner: string) {
  hub(['org', 'create', slug, '--name', `Org ${slug}`, '--owner', owner, '--owner-name', `Owner ${slug}`]);
  return apiAs(owner);
}

test('a revoke says which projects nobody can manage; the filter lists them until a force-release', async ({
  page,
}) => {
  const slug = 'life-release';
  const owner = await organization(slug, 'lr-owner');
  await owner.call('PATCH', `/api/org/${slug}/settings`, { membersCanCreateProjects: true });
  await owner.call('POST', `/api/org/${slug}/members`, {
    imOpenId: 'lr-max',
    displayName: 'Max Maker',
    role: 'MEMBER',
  });
  const max = await apiAs('lr-max');
  const project = await max.call('POST', `/api/org/${slug}/projects`, { name: 'Side project' });

  await signIn(page, 'lr-owner');
  await page.goto(`/o/${slug}/members`);
  await page.getByRole('button', { name: 'Revoke Max Maker' }).click();
  await page
    .getByRole('dialog', { name: 'Revoke Max Maker?' })
    .getByRole('button', { name: 'Revoke membership' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Projects nobody can manage now' });
  const command = `hub project force-release ${slug} ${project.id} --manager <imOpenId|team-slug>`;
  await expect(dialog.getByRole('table')).toContainText('Side project');
  await expect(dialog.getByText(command)).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Done' }).click();

  await page.goto(`/o/${slug}/projects`);
  await page.getByText('Nobody can manage', { exact: true }).click();
  const table = page.getByRole('table', { name: 'Projects nobody can manage' });
  await expect(table.getByRole('row').filter({ hasText: 'Side project' })).toContainText(command);
  await expectAccessible(page);
  await screenshot(page, 'unmanaged-projects');

  hub(['project', 'force-release', slug, project.id, '--manager', 'lr-owner']);
  await page.reload();
  await page.getByText('Nobody can manage', { exact: true }).click();
  await expect(page.getByText('Every project has someone who can manage it.')).toBeVisible();
});

test('an owner renames, offers the ownership, the member accepts, deletes and restores; one leaves', async ({
  page,
}) => {
  const slug = 'life-cycle';
  const owner = await organization(slug, 'lc-owner');
  await owner.call('POST', `/api/org/${slug}/members`, { imOpenId: 'lc-nia', displayName: 'Nia Next', role: 'ADMIN' });

  await signIn(page, 'lc-owner');
  await page.goto(`/o/${slug}/settings`);
  const section = page.getByRole('region', { name: 'Name, ownership and deletion' });
  await section.getByRole('textbox', { name: 'Name' }).fill('Lifecycle Renamed');
  await section.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByText('Renamed to Lifecycle Renamed')).toBeVisible();

  // A slug taken by another organization is refused in the server's words.
  await section.getByRole('textbox', { name: /^Slug/ }).fill('life-release');
  await section.getByRole('button', { name: 'Rename' }).click();
  const slugDialog = page.getByRole('dialog', { name: 'Change the slug?' });
  await slugDialog.getByRole('button', { name: 'Change the slug' }).click();
  await expect(slugDialog.getByRole('alert')).toContainText('is taken');
  await slugDialog.getByRole('button', { name: 'Cancel' }).click();
  await section.getByRole('textbox', { name: /^Slug/ }).fill(slug);

  await pick(section, 'Member', 'Nia Next (ADMIN)');
  await section.getByRole('button', { name: 'Offer the ownership' }).click();
  await page.getByRole('dialog', { name: 'Offer the ownership?' }).getByRole('button', { name: 'Offer' }).click();
  await expect(section.getByText(/Offered to Nia Next/)).toBeVisible();
  await expectAccessible(page);

  await signIn(page, 'lc-nia');
  await page.goto(`/o/${slug}/members`);
  const offer = page.getByRole('status').filter({ hasText: 'You are offered the ownership' });
  await expect(offer).toContainText('Owner life-cycle offers you the OWNER role');
  await expectAccessible(page);
  await offer.getByRole('button', { name: 'Accept the ownership' }).click();
  await expect(page.getByText('You are an OWNER now')).toBeVisible();
  await expect(offer).toHaveCount(0);

  await page.goto(`/o/${slug}/settings`);
  await section.getByRole('button', { name: 'Delete the organization' }).click();
  await page.getByRole('dialog', { name: 'Delete Lifecycle Renamed?' }).getByRole('button', { name: 'Delete' }).click();
  const deleting = page.getByRole('status').filter({ hasText: 'This organization is being deleted' });
  await expect(deleting).toContainText('Nothing in it can change');
  await expectAccessible(page);
  await screenshot(page, 'organization-deleting');
  // Read-only: a change is refused with the server's reason.
  await section.getByRole('textbox', { name: 'Name' }).fill('Changed meanwhile');
  await section.getByRole('button', { name: 'Rename' }).click();
  await expect(section.getByRole('alert')).toContainText('is being deleted');
  await deleting.getByRole('button', { name: 'Restore the organization' }).click();
  await expect(page.getByText('Lifecycle Renamed is restored')).toBeVisible();
  await expect(deleting).toHaveCount(0);

  // The former owner, an ADMIN now, leaves from their profile.
  await signIn(page, 'lc-owner');
  await page.goto('/profile');
  const orgs = page.getByRole('region', { name: 'Your organizations' });
  await expect(orgs).toContainText('Lifecycle Renamed · ADMIN');
  await orgs.getByRole('button', { name: 'Leave Lifecycle Renamed' }).click();
  await page.getByRole('dialog', { name: 'Leave Lifecycle Renamed?' }).getByRole('button', { name: 'Leave' }).click();
  await expect(page.getByText('You left Lifecycle Renamed')).toBeVisible();
  await expect(orgs).toContainText('You are a member of no organization.');
});

test('the settings and projects pages of the lifecycle work at 390 px', async ({ page }) => {
  const slug = 'life-phone';
  await organization(slug, 'lp-owner');
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'lp-owner');
  for (const screen of ['settings', 'projects']) {
    await page.goto(`/o/${slug}/${screen}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    if (screen === 'projects') await page.getByText('Nobody can manage', { exact: true }).click();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page);
  }
});
