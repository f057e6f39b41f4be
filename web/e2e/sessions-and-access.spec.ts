import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { apiAs } from './support/hub';

/**
 * A person's own place: the profile's name, organizations with teams and sessions; an admin
 * signing a member out everywhere; and access requests, from the refused member's request on
 * the denied page to the MANAGE holder's approval (seed: olivia OWNER of acme, mia a MEMBER in
 * team Platform). Each run makes its own project and people, so the seed stays as it was.
 */

for (const width of [1280, 390]) {
  const viewport = { width, height: width > 600 ? 800 : 844 };

  test(`a refused member asks for access and the MANAGE holder approves it, at ${width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const olivia = await apiAs('olivia');
    const project = await olivia.call('POST', '/api/org/acme/projects', { name: `Vault ${width}` });

    await signIn(page, 'mia');
    await page.goto(`/o/acme/projects/${project.id}`);
    await expect(page).toHaveURL(/\/o\/acme\/my-projects\?denied=/);
    const notice = page.getByTestId('access-notice');
    await expect(notice).toContainText('You have no access to that project');
    await expect(notice).not.toContainText('project_access_denied');
    await expect(notice.getByTestId('request-access')).toContainText('Olivia Owner can grant access');
    await expect(page.getByTestId('my-teams')).toContainText('Platform');
    await expectAccessible(page);
    await notice.getByLabel('Why you need it').fill('I review the vault releases');
    await notice.getByRole('button', { name: 'Request access' }).click();
    await expect(notice).toContainText('the request is pending');
    await screenshot(page, 'access-request-sent');

    await signIn(page, 'olivia');
    await page.goto(`/o/acme/projects/${project.id}`);
    const request = page.getByTestId('pending-access-request');
    await expect(request).toContainText('asks for READ');
    await expect(request).toContainText('I review the vault releases');
    await expectAccessible(page);
    await request.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('No one is waiting for access.')).toBeVisible();

    await signIn(page, 'mia');
    await page.goto(`/o/acme/projects/${project.id}`);
    await expect(page.getByRole('heading', { name: `Vault ${width}`, level: 1 })).toBeVisible();
    // The path on the host is the org admins' concern alone.
    await expect(page.getByText('Workspace directory')).toHaveCount(0);
    await page.goto('/profile');
    await expect(page.getByTestId('my-access-request').filter({ hasText: `Vault ${width}` })).toContainText('approved');
  });

  test(`the profile names the person, their teams and sessions; an admin signs a member out, at ${width} px`, async ({
    page,
    browser,
  }) => {
    await page.setViewportSize(viewport);
    const olivia = await apiAs('olivia');
    const imOpenId = `sam-${width}`;
    await olivia.call('POST', '/api/org/acme/members', { imOpenId, role: 'MEMBER' });
    const elsewhere = await browser.newContext();
    const other = await elsewhere.newPage();
    await signIn(other, imOpenId);

    await signIn(page, imOpenId);
    await page.goto('/profile');
    await expect(page.getByTestId('my-organization').filter({ hasText: 'Acme Corp' })).toContainText('In no team');
    const sessions = page.getByTestId('my-session');
    await expect(sessions).toHaveCount(2);
    await expect(sessions.filter({ hasText: 'This browser' })).toHaveCount(1);
    await page.getByRole('textbox', { name: 'Display name' }).fill(`Sam ${width}`);
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByText('Your name is saved')).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'profile-sessions');

    await page.getByRole('button', { name: 'Sign out all other sessions' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sign out others' }).click();
    await expect(sessions).toHaveCount(1);
    await other.goto('/profile');
    await expect(other).toHaveURL(/\/signin/);
    // Signed in there again; this browser now becomes olivia's, which ends Sam's session here.
    await signIn(other, imOpenId);

    await signIn(page, 'olivia');
    await page.goto('/o/acme/members');
    await page.getByRole('textbox', { name: /Search/ }).fill(`Sam ${width}`);
    await page.getByRole('button', { name: `Sign out Sam ${width} everywhere` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('they stay a member');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(page.getByText(`Signed Sam ${width} out of 1 session`)).toBeVisible();
    await other.goto('/profile');
    await expect(other).toHaveURL(/\/signin/);
    await elsewhere.close();
  });
}
