import type { Browser, Page } from '@playwright/test';
import { join } from 'node:path';
import knex from 'knex';
import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { apiAs, hub } from './support/hub';
import { pick, selectBox } from './support/select';

/** An organization of this spec's own, owned by `oscar`, with one team. */
const ORG = 'invites';
let teamId: string;

test.beforeAll(async () => {
  // A worker started again after a failed test finds the organization already made.
  try {
    hub(['org', 'create', ORG, '--name', 'Invites Inc', '--owner', 'oscar', '--owner-name', 'Oscar Owner']);
  } catch (error) {
    if (!String(error).includes('is taken')) throw error;
  }
  // Invitations bound to an email need the address's domain verified for the organization.
  hub(['domain', 'verify', ORG, 'example.com']);
  const owner = await apiAs('oscar');
  const { teams } = await owner.call<{ teams: Array<{ id: string; slug: string }> }>('GET', `/api/org/${ORG}/teams`);
  teamId =
    teams.find((t) => t.slug === 'eng')?.id ??
    (await owner.call('POST', `/api/org/${ORG}/teams`, { slug: 'eng', name: 'Engineering' })).id;
});

/** Signs in through the OpenID Provider's own login and consent pages, as `login`. */
async function signInAtProvider(page: Page, login: string) {
  await page.getByRole('link', { name: 'Company SSO' }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** A link made through the API by the owner; `email` binds it. */
async function linkFor(body: Record<string, unknown>): Promise<{ id: string; url: string }> {
  const owner = await apiAs('oscar');
  return owner.call('POST', `/api/org/${ORG}/invitations`, { role: 'MEMBER', ...body });
}

/** A browser of the invitee's own, with no session. */
async function freshBrowser(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: process.env.HUB_E2E_BASE_URL });
  return context.newPage();
}

test('an admin invites by link; another person signs in from it and lands with the role and team', async ({
  page,
  browser,
}) => {
  // Two people, two browsers, a provider's login and consent pages and four accessibility checks.
  test.slow();
  await signIn(page, 'oscar');
  await page.goto(`/o/${ORG}/members`);
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite someone' });
  await pick(dialog, 'Role', 'ADMIN');
  await dialog.getByRole('combobox', { name: 'Teams' }).click();
  await page.getByRole('listbox', { name: 'Teams' }).getByRole('option', { name: 'Engineering' }).click();
  await dialog.getByRole('textbox', { name: /Email/ }).fill('ivy@example.com');
  await dialog.getByRole('textbox', { name: 'Expires after (days)' }).fill('3');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const shown = page.getByRole('dialog', { name: 'Invitation link' });
  await expect(shown.getByText('You will not see this link again.', { exact: false })).toBeVisible();
  const url = (await shown.getByTestId('invitation-link').textContent())!.trim();
  expect(url).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  await expectAccessible(page);
  await screenshot(page, 'invitation-link');
  await shown.getByRole('button', { name: 'Done' }).click();
  const pending = page.getByRole('table', { name: 'Pending invitations' });
  await expect(pending.getByRole('cell', { name: 'ivy@example.com 1 team' })).toBeVisible();
  await expectAccessible(page);

  // Ivy, in her own browser, opens the link, signs in and comes back to it.
  const ivy = await freshBrowser(browser);
  await ivy.goto(new URL(url).pathname);
  await ivy.getByRole('link', { name: 'Sign in to continue' }).click();
  await expect(ivy).toHaveURL(/\/signin\?returnTo=%2Finvite%2F/);
  await signInAtProvider(ivy, 'ivy');
  await expect(ivy).toHaveURL(new URL(url).pathname);
  await expect(ivy.getByText('Oscar Owner invited you to join Invites Inc as')).toBeVisible();
  await expect(ivy.getByText('ADMIN')).toBeVisible();
  await expectAccessible(ivy);
  await screenshot(ivy, 'invitation-accept');
  await ivy.getByRole('button', { name: 'Accept and join Invites Inc' }).click();
  await expect(ivy).toHaveURL(new RegExp(`/o/${ORG}/members$`));
  await expect(ivy.getByTestId('signed-in-user')).toHaveText('Ivy Invitee');
  await ivy.getByLabel('Search members').fill('Ivy');
  await expect(selectBox(ivy, 'Role of Ivy Invitee')).toHaveValue('ADMIN');
  await ivy.goto(`/o/${ORG}/teams/${teamId}`);
  await expect(ivy.getByRole('table', { name: 'Team members' }).getByText('Ivy Invitee')).toBeVisible();

  // The owner sees the invitation accepted, and both steps in the audit log.
  await page.reload();
  await page.getByRole('radiogroup', { name: 'Filter invitations by status' }).getByText('Accepted').click();
  await expect(page.getByRole('table', { name: 'Invitations' }).getByText('by Ivy Invitee')).toBeVisible();
  await page.goto(`/o/${ORG}/audit`);
  const events = page.getByRole('table', { name: 'Audit events' });
  await expect(events.getByRole('row').nth(1).getByText('acceptInvitation')).toBeVisible();
  await expect(events.getByRole('row').nth(1).getByRole('button', { name: 'Ivy Invitee', exact: true })).toBeVisible();
  await expect(events.getByRole('row').nth(1)).toContainText(
    'Ivy Invitee accepted ivy@example.com and joined as ADMIN',
  );
  await expect(events.getByRole('row').nth(2).getByText('createInvitation')).toBeVisible();
  await expect(events.getByRole('row').nth(2).getByRole('button', { name: 'Oscar Owner', exact: true })).toBeVisible();

  // The same link again: used.
  await ivy.goto(new URL(url).pathname);
  await expect(ivy.getByRole('alert')).toContainText('This invitation was already accepted; a link is single use.');
  await ivy.context().close();
});

/** A person with no organization, signed in through the provider at 390 px, on the no-organization screen. */
async function signedInVisitor(browser: Browser, login: string): Promise<Page> {
  const visitor = await freshBrowser(browser);
  await visitor.setViewportSize({ width: 390, height: 844 });
  await visitor.goto('/signin');
  await signInAtProvider(visitor, login);
  await expect(visitor.getByText(/not a member of any organization/)).toBeVisible();
  return visitor;
}

test('revoked and expired links are refused with their messages, at 390 px', async ({ page, browser }) => {
  // Two people in two browsers, one through the provider's login and consent pages.
  test.slow();
  const walt = await signedInVisitor(browser, 'walt');
  await expect(walt.getByText(/No invitation is addressed to you/)).toBeVisible();

  // Revoked by the owner in the pending list, after confirming.
  const revoked = await linkFor({ email: 'revoked@example.com' });
  await signIn(page, 'oscar');
  await page.goto(`/o/${ORG}/members`);
  await page.getByRole('button', { name: 'Revoke the invitation for revoked@example.com' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke this invitation?' });
  await confirm.getByRole('button', { name: 'Revoke invitation' }).click();
  await expect(page.getByText('Invitation revoked')).toBeVisible();
  await walt.goto(new URL(revoked.url).pathname);
  await expect(walt.getByRole('alert')).toContainText('This invitation was revoked; ask for a new one.');
  await expect(walt.getByRole('button', { name: /Accept/ })).toHaveCount(0);
  await expectAccessible(walt);
  await screenshot(walt, 'invitation-revoked');

  // Expired: a day cannot pass in a test, so the invitation's expiry is moved into the past.
  const expired = await linkFor({});
  const db = knex({
    client: 'sqlite3',
    connection: { filename: join(process.env.HUB_E2E_DATA_DIR!, 'hub.sqlite') },
    useNullAsDefault: true,
  });
  try {
    await db('invitations').where({ id: expired.id }).update({ expires_at: '2020-01-01T00:00:00.000Z' });
  } finally {
    await db.destroy();
  }
  await walt.goto(new URL(expired.url).pathname);
  await expect(walt.getByRole('alert')).toContainText('This invitation has expired; ask for a new one.');

  await walt.context().close();
});

test('a link for another email is refused with the server’s message; one for mine waits on my screen', async ({
  browser,
}) => {
  const wendy = await signedInVisitor(browser, 'wendy');
  // For another email address: the server's message, and a way to sign in as someone else.
  const wrong = await linkFor({ email: 'grace@example.com' });
  await wendy.goto(new URL(wrong.url).pathname);
  await wendy.getByRole('button', { name: 'Accept and join Invites Inc' }).click();
  await expect(wendy.getByRole('alert')).toContainText('This invitation is for grace@example.com');
  await expect(wendy.getByRole('button', { name: 'Sign in as someone else' })).toBeVisible();
  await expectAccessible(wendy);
  await screenshot(wendy, 'invitation-wrong-email');

  // An invitation for her own verified email waits on the no-organization screen.
  await linkFor({ email: 'wendy@example.com' });
  await wendy.goto('/');
  await expect(wendy.getByRole('heading', { name: 'Invitations for you' })).toBeVisible();
  await expectAccessible(wendy);
  await screenshot(wendy, 'my-invitations');
  await wendy.getByRole('button', { name: 'Join Invites Inc' }).click();
  await expect(wendy).toHaveURL(new RegExp(`/o/${ORG}/my-projects$`));
  await wendy.context().close();
});
