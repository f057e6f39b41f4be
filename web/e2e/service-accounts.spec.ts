/**
 * Service accounts against the real server, in an organization of its own: an owner creates one,
 * puts it in a team, gives it a token (shown once) and rotates it with an overlap; a member's
 * leaving shows what stops and stays and moves a token's work to the account; the token policy in
 * Settings refuses what it forbids; the pages work at 390 px.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { apiAs, hub } from './support/hub';
import { pick } from './support/select';

const run = Date.now().toString(36);
const ORG = `robots-${run}`;
const OWNER = `sara-${run}`;
const LEAVER = `rosa-${run}`;
const MEMBER = `mo-${run}`;
const TOKEN = /^hubt_[a-z2-7]{16}_[0-9A-Za-z]{43}$/;

test.beforeAll(async () => {
  hub(['org', 'create', ORG, '--name', 'Robots Inc', '--owner', OWNER, '--owner-name', 'Sara Owner']);
  const owner = await apiAs(OWNER);
  await owner.call('POST', `/api/org/${ORG}/members`, { imOpenId: LEAVER, displayName: 'Rosa Leaver', role: 'MEMBER' });
  await owner.call('POST', `/api/org/${ORG}/members`, { imOpenId: MEMBER, displayName: 'Mo Member', role: 'MEMBER' });
  await owner.call('POST', `/api/org/${ORG}/teams`, { slug: 'release', name: 'Release' });
});

/** The status of a call with only this token (no cookie). */
const statusWith = async (page: Page, baseURL: string | undefined, token: string, path = 'teams') =>
  (
    await page.request.get(`${baseURL}/api/org/${ORG}/${path}`, { headers: { authorization: `Bearer ${token}` } })
  ).status();

/** Creates a token in the form on screen, with read access to `area`; answers the secret shown once. */
async function createToken(page: Page, name: string, area: string) {
  const form = page.getByRole('form', { name: 'Create a token' });
  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  await form.getByRole('radiogroup', { name: area }).getByText('Read', { exact: true }).click();
  await page.getByRole('button', { name: 'Create token' }).click();
  const dialog = page.getByRole('dialog', { name: `Token “${name}” created` });
  const token = (await dialog.getByTestId('new-token').textContent())?.trim() ?? '';
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  return token;
}

test('an owner creates a service account, adds it to a team, and gives it a token that rotates', async ({
  page,
  baseURL,
}) => {
  await signIn(page, OWNER);
  await page.goto(`/o/${ORG}/service-accounts`);
  await expect(page.getByRole('heading', { name: 'Service accounts', level: 1 })).toBeVisible();
  await expect(page.getByText('No service accounts yet.')).toBeVisible();
  await expectAccessible(page);

  const create = page.getByRole('form', { name: 'Create a service account' });
  await create.getByRole('textbox', { name: 'Name' }).fill('Release bot');
  await pick(create, 'Role', 'ADMIN');
  await page.getByRole('button', { name: 'Create service account' }).click();
  await expect(page.getByRole('heading', { name: 'Release bot', level: 1 })).toBeVisible();
  await expect(page.getByText('In no team yet: it reaches no project.')).toBeVisible();

  await pick(page, 'Add to a team', 'Release');
  await page.getByRole('button', { name: 'Add to team' }).click();
  await expect(page.getByRole('list', { name: 'Its teams' }).getByRole('link', { name: 'Release' })).toBeVisible();

  const first = await createToken(page, 'deploys', 'Teams');
  expect(first).toMatch(TOKEN);
  const row = page
    .getByRole('table', { name: 'Service account tokens' })
    .getByRole('row')
    .filter({ hasText: 'deploys' });
  await expect(row.getByText(first.slice(5, 21), { exact: false })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'service-account');
  expect(await statusWith(page, baseURL, first)).toBe(200);

  // Rotated with an hour's overlap: the old secret and the new one both work.
  await row.getByRole('button', { name: 'Rotate deploys' }).click();
  const rotate = page.getByRole('dialog', { name: 'Rotate “deploys”?' });
  await pick(rotate, 'Old secret keeps working', '1 hour');
  await expectAccessible(page);
  await rotate.getByRole('button', { name: 'Rotate token' }).click();
  const shown = page.getByRole('dialog', { name: 'Token “deploys” created' });
  const second = (await shown.getByTestId('new-token').textContent())?.trim() ?? '';
  await shown.getByRole('button', { name: 'Done' }).click();
  expect(second).toMatch(TOKEN);
  expect(second.slice(5, 21)).toBe(first.slice(5, 21));
  expect(second).not.toBe(first);
  expect(await statusWith(page, baseURL, first)).toBe(200);
  expect(await statusWith(page, baseURL, second)).toBe(200);

  // Disabled, its tokens are refused; enabled, they work again.
  await page.getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByText('Release bot is disabled')).toBeVisible();
  expect(await statusWith(page, baseURL, second)).toBe(401);
  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByText('Release bot is enabled')).toBeVisible();
  expect(await statusWith(page, baseURL, second)).toBe(200);

  await page.getByRole('link', { name: 'Service accounts' }).first().click();
  const listed = page
    .getByRole('table', { name: 'Service accounts' })
    .getByRole('row')
    .filter({ hasText: 'Release bot' });
  await expect(listed.getByText('ADMIN')).toBeVisible();
  await expect(listed.getByText('Release', { exact: true })).toBeVisible();
});

test('removing a member shows what stops and stays, and moves a token’s work to a service account', async ({
  page,
  baseURL,
}) => {
  await signIn(page, LEAVER);
  await page.goto(`/o/${ORG}/tokens`);
  const personal = await createToken(page, 'rosa sync', 'Organization');
  expect(await statusWith(page, baseURL, personal, '')).toBe(200);

  await signIn(page, OWNER);
  await page.goto(`/o/${ORG}/members`);
  await page.getByRole('button', { name: 'Revoke Rosa Leaver', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke Rosa Leaver?' });
  await expect(dialog.getByText('Token “rosa sync”')).toBeVisible();
  await expect(dialog.getByText('Nothing they created.')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'member-departure');

  await pick(dialog, 'Move “rosa sync” to', 'Release bot');
  await dialog.getByRole('button', { name: 'Make the new token' }).click();
  const moved = page.getByRole('dialog', { name: 'Token “rosa sync” made on the service account' });
  const replacement = (await moved.getByTestId('moved-token').textContent())?.trim() ?? '';
  await moved.getByRole('button', { name: 'Done' }).click();
  expect(replacement).toMatch(TOKEN);

  await dialog.getByRole('button', { name: 'Revoke membership' }).click();
  await expect(page.getByText('Revoked Rosa Leaver')).toBeVisible();
  expect(await statusWith(page, baseURL, personal, '')).toBe(401);
  expect(await statusWith(page, baseURL, replacement, '')).toBe(200);
});

test('the token policy in Settings refuses what it forbids', async ({ page }) => {
  await signIn(page, OWNER);
  await page.goto(`/o/${ORG}/settings`);
  const policy = page.getByRole('form', { name: 'API tokens' });
  await policy.getByRole('switch', { name: 'Members may create personal tokens' }).click({ force: true });
  await policy.getByLabel('Longest lifetime (days)').fill('30');
  await policy.getByRole('button', { name: 'Save token policy' }).click();
  await expect(page.getByText('Token policy saved')).toBeVisible();
  await expectAccessible(page);

  await signIn(page, MEMBER);
  await page.goto(`/o/${ORG}/tokens`);
  const form = page.getByRole('form', { name: 'Create a token' });
  await form.getByRole('textbox', { name: 'Name' }).fill('not allowed');
  await form.getByRole('radiogroup', { name: 'Organization' }).getByText('Read', { exact: true }).click();
  await form.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'personalAllowed' })).toBeVisible();
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the service accounts pages fit and pass axe', async ({ page }) => {
    const owner = await apiAs(OWNER);
    await owner.call('POST', `/api/org/${ORG}/service-accounts`, { name: 'Phone bot' });
    await signIn(page, OWNER);
    await page.goto(`/o/${ORG}/service-accounts`);
    const link = page.getByRole('link', { name: 'Phone bot' });
    await expect(link).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'service-accounts');
    await link.click();
    await expect(page.getByRole('heading', { name: 'Phone bot', level: 1 })).toBeVisible();
    const create = page.getByRole('button', { name: 'Create token' });
    await expect(create).toBeVisible();
    const box = await create.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await screenshot(page, 'service-account');
  });
});
