import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';

/**
 * The Webhooks page against `hub serve` (HUB_OUTBOUND_ALLOW_PRIVATE=1 in the global setup), whose
 * dispatcher sends to a receiver on 127.0.0.1 run by this test.
 */
let receiver: http.Server;
let receiverUrl: string;
const received: string[] = [];

test.beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('thanks from the receiver');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
test.afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

test('an admin adds an endpoint, sees its secret once, tests it, and manages it', async ({ page }) => {
  await signIn(page, 'adam');
  await page.goto('/o/acme/webhooks');
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  // The page names the operator's setting that lifts the https-and-public rule.
  await expect(page.getByText('HUB_OUTBOUND_ALLOW_PRIVATE=1')).toBeVisible();
  await expectAccessible(page);

  // Without an event the form says what is missing and sends nothing.
  await page.getByLabel('URL').fill(receiverUrl);
  await page.getByLabel('Description').fill('CRM sync');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.getByText('Pick at least one event')).toBeVisible();

  const events = page.getByRole('combobox', { name: 'Events' });
  await events.fill('createTeam');
  await events.press('Enter');
  await events.press('Escape'); // closes the suggestions, which cover the button below
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Webhook endpoint added' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'webhooks-secret');
  const secret = (await dialog.getByTestId('webhook-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText(secret)).toHaveCount(0);

  const row = page.getByRole('row').filter({ hasText: 'CRM sync' });
  await expect(row.getByText('createTeam')).toBeVisible();
  await row.getByRole('button', { name: 'Send a test to CRM sync' }).click();
  const deliveries = page.getByRole('table', { name: `Deliveries to ${receiverUrl}` });
  const ping = deliveries.getByRole('row').filter({ hasText: 'ping' }).first();
  await expect(ping.getByText('delivered')).toBeVisible();
  await expect(ping.getByText(/HTTP 200/)).toBeVisible();
  await expect(ping.getByText('thanks from the receiver')).toBeVisible();
  expect(received.some((body) => JSON.parse(body).type === 'ping')).toBe(true);
  await expectAccessible(page);
  await screenshot(page, 'webhooks-deliveries');

  await ping.getByRole('button', { name: /^Redeliver ping/ }).click();
  await expect(page.getByText('Queued again')).toBeVisible();
  await expect(deliveries.getByRole('row').filter({ hasText: 'ping' })).toHaveCount(2);

  await row.getByRole('button', { name: 'Edit CRM sync' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit endpoint' });
  await edit.getByLabel('Description').fill('CRM');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  const renamed = page.getByRole('row').filter({ hasText: 'CRM' }).filter({ hasText: receiverUrl });

  await renamed.getByRole('button', { name: 'Disable CRM' }).click();
  await expect(renamed.getByText('disabled by an admin')).toBeVisible();
  await renamed.getByRole('button', { name: 'Enable CRM' }).click();
  await expect(renamed.getByText('active', { exact: true })).toBeVisible();

  await renamed.getByRole('button', { name: 'Rotate the secret of CRM' }).click();
  await page
    .getByRole('dialog', { name: 'Rotate the secret of “CRM”?' })
    .getByRole('button', { name: 'Rotate secret' })
    .click();
  const rotated = page.getByRole('dialog', { name: 'New secret of “CRM”' });
  const next = (await rotated.getByTestId('webhook-secret').textContent())?.trim() ?? '';
  expect(next).toMatch(/^whsec_/);
  expect(next).not.toBe(secret);
  await rotated.getByRole('button', { name: 'Done' }).click();

  await renamed.getByRole('button', { name: 'Delete CRM' }).click();
  await page.getByRole('dialog', { name: 'Delete “CRM”?' }).getByRole('button', { name: 'Delete endpoint' }).click();
  await expect(page.getByText('Deleted CRM')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: receiverUrl })).toHaveCount(0);
});

test('a URL the service refuses is shown with its reason, and nothing is added', async ({ page }) => {
  await signIn(page, 'olivia');
  await page.goto('/o/acme/webhooks');
  await page.getByLabel('URL').fill('ftp://files.example.com/hook');
  const events = page.getByRole('combobox', { name: 'Events' });
  await events.fill('*');
  await events.press('Enter');
  await events.press('Escape'); // closes the suggestions, which cover the button below
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const refused = page.getByRole('alert').filter({ hasText: 'The endpoint was not added' });
  await expect(refused).toContainText('must be an http or https URL');
  await expectAccessible(page);
  await expect(page.getByRole('row').filter({ hasText: 'files.example.com' })).toHaveCount(0);
});

test('the webhooks page works at 390 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'olivia');
  await page.goto('/o/acme/webhooks');
  await expect(page.getByRole('button', { name: 'Add endpoint' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'webhooks');
});
