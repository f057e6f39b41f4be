import { expect, signIn, test } from './support/fixtures';
import { selectBox } from './support/select';

test('an org admin without MANAGE sees team access with every control disabled and the reason', async ({
  page,
  seed,
}) => {
  await signIn(page, 'adam');
  await page.goto(`/o/acme/projects/${seed.projects.billing}`);
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  const reason = page.getByTestId('manage-required');
  await expect(reason).not.toContainText('project_manage_required');
  await expect(reason).toContainText('MANAGE grant');
  await expect(
    page.getByRole('table', { name: 'Team access' }).getByRole('cell', { name: 'Platform platform' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Grant access' })).toBeDisabled();
  await expect(selectBox(page, 'Access of Platform')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Revoke access of Platform' })).toBeDisabled();
  // Oversight: the admin still manages the project itself.
  await expect(page.getByRole('button', { name: 'Rename' })).toBeEnabled();
});

test('a MEMBER sees only My projects and My usage, and is brought back there from a project without a grant', async ({
  page,
  seed,
}) => {
  await signIn(page, 'mia');
  await expect(page).toHaveURL(/\/o\/acme\/my-projects$/);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText(['My projects', 'My usage', 'API tokens', 'Your profile']);
  await expect(page.getByRole('link', { name: 'Billing' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Secret' })).toHaveCount(0);

  await page.goto(`/o/acme/projects/${seed.projects.secret}`);
  await expect(page).toHaveURL(/\/o\/acme\/my-projects\?denied=/);
  await expect(page.getByTestId('access-notice')).toContainText('You have no access to that project');

  await page.goto('/o/acme/members');
  await expect(page).toHaveURL(/\/o\/acme\/my-projects\?notice=admin-only/);
  await expect(page.getByTestId('access-notice')).toContainText('for organization admins');

  await page.getByRole('link', { name: 'Billing' }).click();
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  await expect(page.getByText('Renaming, moving and archiving are for org admins.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Grant access' })).toBeDisabled();
  await expect(page.getByTestId('manage-required')).toBeVisible();
});

test('settings: members may create projects once an admin allows it', async ({ page, browser }) => {
  await signIn(page, 'olivia');
  await page.goto('/o/acme/settings');
  const toggle = page.getByRole('switch', { name: 'Members can create projects' });
  await expect(toggle).not.toBeChecked();
  await toggle.click({ force: true });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Members can create projects' })).toBeChecked();

  const member = await browser.newPage({ baseURL: process.env.HUB_E2E_BASE_URL });
  await signIn(member, 'mia');
  await member.getByRole('button', { name: 'New project' }).click();
  const dialog = member.getByRole('dialog', { name: 'New project' });
  await dialog.getByLabel('Project name').fill('Mia idea');
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(member.getByRole('link', { name: 'Mia idea' })).toBeVisible();
  await member.close();

  await page.getByRole('switch', { name: 'Members can create projects' }).click({ force: true });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
});
