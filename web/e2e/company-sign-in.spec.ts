import type { Page } from '@playwright/test';
import { TestOpenIdProvider } from '../../test/support/openid-provider';
import { expect, expectAccessible, signIn, test } from './support/fixtures';
import { apiAs, hub } from './support/hub';
import { pick } from './support/select';

/**
 * A company connects its own OpenID Provider (a real one on loopback, started here) in
 * organization `northwind` (no other spec uses it): its admin maps two groups to two teams and one
 * to ADMIN, tests the sign-in in a popup, and requires the provider for the verified domain; a
 * colleague's first sign-in lands in the right teams with the right role, someone in no mapped
 * group lands on the page for people of no organization, and the break-glass link still works,
 * audited.
 */
const ORG = 'northwind';
const PROVIDER = `${ORG}-sso`;
const DOMAIN = 'northwind.example';
const SECRET = 'northwind-client-secret';
let idp: TestOpenIdProvider;
const teams: Record<'eng' | 'platform', string> = { eng: '', platform: '' };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const baseUrl = process.env.HUB_E2E_BASE_URL!;
  idp = await TestOpenIdProvider.start({
    clientId: 'northwind-hub',
    clientSecret: SECRET,
    redirectUris: [`${baseUrl}/auth/${PROVIDER}/callback`],
  });
  const account = (name: string, groups: string[]) => ({
    name,
    email: `${name.toLowerCase()}@${DOMAIN}`,
    email_verified: true,
    groups,
  });
  idp.addAccount('colin', account('Colin', ['nw-eng', 'nw-platform', 'nw-admins']));
  idp.addAccount('pat', account('Pat', ['sales']));
  hub(['org', 'create', ORG, '--name', 'Northwind', '--owner', 'nadia', '--owner-name', 'Nadia Owner']);
  hub(['domain', 'verify', ORG, DOMAIN]);
  const nadia = await apiAs('nadia');
  teams.eng = (await nadia.call('POST', `/api/org/${ORG}/teams`, { slug: 'eng', name: 'Engineering' })).id;
  teams.platform = (await nadia.call('POST', `/api/org/${ORG}/teams`, { slug: 'platform', name: 'Platform' })).id;
});

test.afterAll(async () => {
  await idp?.stop();
});

/** Walks the provider's own login and consent pages as `login`, until it sends the browser back. */
async function signInAtProvider(page: Page, login: string) {
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('the admin connects the provider, maps groups to teams and ADMIN, tests it and requires it', async ({ page }) => {
  await signIn(page, 'nadia');
  await page.goto(`/o/${ORG}/settings`);
  const section = page.getByRole('region', { name: 'Sign-in' });
  await expect(section.getByText('No identity provider yet.')).toBeVisible();
  await section.getByRole('button', { name: 'Connect a provider' }).click();
  const form = section.getByRole('form', { name: 'Connect an identity provider' });
  await expect(form.getByRole('textbox', { name: 'Id', exact: true })).toHaveValue(PROVIDER);
  await form.getByRole('textbox', { name: 'Button label', exact: true }).fill('Northwind SSO');
  await form.getByRole('textbox', { name: 'Issuer', exact: true }).fill(idp.issuer);
  await form.getByRole('textbox', { name: 'Client id', exact: true }).fill('northwind-hub');
  await form.getByLabel('Client secret').fill(SECRET);
  await form.getByRole('textbox', { name: 'Group 1', exact: true }).fill('nw-eng');
  await pick(form, 'Team for group 1', 'Engineering');
  await form.getByRole('button', { name: 'Add a group' }).click();
  await form.getByRole('textbox', { name: 'Group 2', exact: true }).fill('nw-platform');
  await pick(form, 'Team for group 2', 'Platform');
  await form.getByRole('button', { name: 'Add a group' }).click();
  await form.getByRole('textbox', { name: 'Group 3', exact: true }).fill('nw-admins');
  await pick(form, 'Role for group 3', 'ADMIN');
  await expectAccessible(page);
  await form.getByRole('button', { name: 'Connect provider' }).click();
  const providers = section.getByRole('table', { name: 'Identity providers' });
  await expect(providers.getByText('Northwind SSO')).toBeVisible();
  await expect(providers.getByText('Groups: nw-eng, nw-platform, nw-admins')).toBeVisible();
  expect(await page.content()).not.toContain(SECRET);

  // The test sign-in runs in a popup, and reports what the provider sent; nobody is signed in.
  const popupOpened = page.waitForEvent('popup');
  await section.getByRole('button', { name: 'Test sign-in through Northwind SSO' }).click();
  const popup = await popupOpened;
  await signInAtProvider(popup, 'colin');
  await expect(popup.getByRole('heading', { name: 'Test sign-in' })).toBeVisible();
  const report = section.getByRole('region', { name: 'Test sign-in through Northwind SSO' });
  await expect(report).toContainText(`colin@${DOMAIN} (verified)`);
  await expect(report).toContainText('nw-eng, nw-platform, nw-admins');
  await expect(report.getByText('ADMIN', { exact: true })).toBeVisible();
  await expect(report.getByRole('listitem').filter({ hasText: 'Engineering' })).toBeVisible();
  await expect(report.getByRole('listitem').filter({ hasText: 'Platform' })).toBeVisible();
  await popup.close();
  await expectAccessible(page);

  const domains = page.getByRole('region', { name: 'Domains' });
  await pick(domains, `Sign-in required for ${DOMAIN}`, 'Northwind SSO');
  await expect(page.getByText(`People at ${DOMAIN} now sign in only through ${PROVIDER}`)).toBeVisible();
});

test('a colleague’s first sign-in lands in the mapped teams as ADMIN', async ({ page }) => {
  await page.goto(`/signin?org=${ORG}`);
  await expect(page.getByRole('heading', { name: `Sign in to ${ORG}` })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Northwind SSO' }).click();
  await signInAtProvider(page, 'colin');
  await expect(page).toHaveURL(new RegExp(`/o/${ORG}/`));
  const nadia = await apiAs('nadia');
  const { members } = await nadia.call<{ members: Array<{ displayName: string; role: string; userId: string }> }>(
    'GET',
    `/api/org/${ORG}/members`,
  );
  const colin = members.find((m) => m.displayName === 'Colin')!;
  expect(colin.role).toBe('ADMIN');
  for (const teamId of [teams.eng, teams.platform]) {
    const { members: inTeam } = await nadia.call<{ members: Array<{ userId: string }> }>(
      'GET',
      `/api/org/${ORG}/teams/${teamId}/members`,
    );
    expect(inTeam.map((m) => m.userId)).toContain(colin.userId);
  }
  // As an ADMIN they see the organization's settings.
  await page.goto(`/o/${ORG}/settings`);
  await expect(page.getByRole('region', { name: 'Sign-in' })).toBeVisible();
});

test('the break-glass link still works for someone the domain requires, and is audited', async ({ page }) => {
  const nadia = await apiAs('nadia');
  const { members } = await nadia.call<{ members: Array<{ displayName: string; imOpenId: string }> }>(
    'GET',
    `/api/org/${ORG}/members`,
  );
  const colin = members.find((m) => m.displayName === 'Colin')!;
  expect(() => hub(['login-link', colin.imOpenId])).toThrow(/sign in with Northwind SSO/);
  await page.goto(hub(['login-link', colin.imOpenId, '--break-glass']));
  await expect(page).toHaveURL(new RegExp(`/o/${ORG}/`));
  const { events } = await nadia.call<{ events: Array<{ actor: { type: string } }> }>(
    'GET',
    `/api/org/${ORG}/audit-events?action=session.break_glass`,
  );
  expect(events).toEqual([expect.objectContaining({ actor: expect.objectContaining({ type: 'console' }) })]);
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('someone in no mapped group lands on the page for people of no organization', async ({ page }) => {
    await page.goto(`/signin?org=${ORG}`);
    await page.getByRole('link', { name: 'Northwind SSO' }).click();
    await signInAtProvider(page, 'pat');
    await expect(page.getByText('You are signed in, but you are not a member of any organization yet.')).toBeVisible();
    const who = page.getByRole('region', { name: 'Who you are' });
    await expect(who.getByText(`${PROVIDER}:pat`)).toBeVisible();
    await expect(who.getByRole('table', { name: 'Your sign-ins' })).toContainText(`pat@${DOMAIN}`);
    await expect(who.getByRole('table', { name: 'Your sign-ins' })).toContainText('Northwind SSO');
    await expectAccessible(page);
    // The sign-in page does not send them back here: they may sign in another way.
    await page.getByRole('link', { name: 'Sign in another way' }).click();
    await expect(page.getByText('Signed in as Pat')).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByText('You are not signed in.')).toBeVisible();
  });

  test('the settings page with the provider works at 390 px', async ({ page }) => {
    await signIn(page, 'nadia');
    await page.goto(`/o/${ORG}/settings`);
    await expect(page.getByRole('table', { name: 'Identity providers' }).getByText('Northwind SSO')).toBeVisible();
    await expectAccessible(page);
  });
});
