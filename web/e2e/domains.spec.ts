import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { hub } from './support/hub';
import { pick } from './support/select';

/**
 * The Domains section of the settings page, in organization `beta` (no other spec uses its
 * settings). The server asks a closed loopback port for DNS (global setup), so verification fails
 * with the server's words; the operator's `hub domain verify` then binds the domain.
 */
const DOMAIN = 'domains-e2e.example';

test('an owner adds a domain, sees its record, and uses it in automatic membership once bound', async ({ page }) => {
  await signIn(page, 'olivia');
  await page.goto('/o/beta/settings');
  const section = page.getByRole('region', { name: 'Domains' });
  await expect(section.getByText(/No domains yet/)).toBeVisible();
  await expectAccessible(page);

  // A name the server refuses is shown with its reason, and nothing is added.
  await section.getByRole('textbox', { name: 'Domain' }).fill('localhost');
  await section.getByRole('button', { name: 'Add domain' }).click();
  await expect(section.getByRole('alert').filter({ hasText: 'The domain was not added' })).toContainText('localhost');
  await expect(section.getByText(/No domains yet/)).toBeVisible();

  await section.getByRole('textbox', { name: 'Domain' }).fill(DOMAIN.toUpperCase());
  await section.getByRole('button', { name: 'Add domain' }).click();
  const table = section.getByRole('table', { name: 'Domains' });
  const row = table.getByRole('row').filter({ hasText: DOMAIN });
  await expect(row.getByText('pending', { exact: true })).toBeVisible();
  await expect(row.getByText(`_hub-verification.${DOMAIN}`, { exact: true })).toBeVisible();
  await expect(row.getByText(/^hub-verification=\S+$/)).toBeVisible();
  await expect(row.getByRole('button', { name: `Copy the record name of ${DOMAIN}` })).toBeVisible();
  await expect(row.getByRole('button', { name: `Copy the record value of ${DOMAIN}` })).toBeVisible();

  await row.getByRole('button', { name: `Verify ${DOMAIN}` }).click();
  const refused = row.getByRole('alert').filter({ hasText: 'Not verified' });
  await expect(refused).toContainText(`${DOMAIN} is not verified yet`);
  await expect(refused).toContainText('the DNS servers refused the connection');
  await expect(row.getByText('pending', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'domains-pending');

  hub(['domain', 'verify', 'beta', DOMAIN]);
  await page.reload();
  await expect(row.getByText('verified', { exact: true })).toBeVisible();
  await expect(row.getByText(/^since /)).toBeVisible();
  await expect(row.getByRole('button', { name: `Verify ${DOMAIN}` })).toHaveCount(0);
  await expect(row.getByText(`_hub-verification.${DOMAIN}`)).toHaveCount(0);

  const rule = page.getByRole('form', { name: 'Automatic membership' });
  await rule.getByRole('switch', { name: /Let people join as MEMBER/ }).check();
  await pick(rule, 'Identity provider', 'Company SSO');
  await expect(rule.getByRole('link', { name: 'Domains' })).toHaveAttribute('href', '#domains');
  // A multi-select stays open for the next choice; only the verified domain is offered.
  const emailDomains = rule.getByRole('combobox', { name: 'Email domains' });
  await emailDomains.click();
  await page.getByRole('listbox', { name: 'Email domains' }).getByRole('option', { name: DOMAIN }).click();
  await emailDomains.press('Escape');
  await rule.getByRole('button', { name: 'Save automatic membership' }).click();
  await expect(page.getByText('Automatic membership saved')).toBeVisible();

  // The rule names the domain: deleting it is refused, and the dialog says why in the server's words.
  await row.getByRole('button', { name: `Delete ${DOMAIN}` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete “${DOMAIN}”?` });
  await expect(dialog).toContainText('take the domain out of the rule first');
  await dialog.getByRole('button', { name: 'Delete domain' }).click();
  await expect(dialog.getByRole('alert')).toContainText('remove the domain from the rule first');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.reload();
  await expect(row.getByText('verified', { exact: true })).toBeVisible();
});

test('the settings page with its domains works at 390 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'olivia');
  await page.goto('/o/beta/settings');
  await expect(page.getByRole('region', { name: 'Domains' }).getByRole('button', { name: 'Add domain' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await screenshot(page, 'domains');
});
