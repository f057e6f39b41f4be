/**
 * The Connections screen against the real server, in an organization of its own: BYOK provider
 * connections (create, rotate, disable), a PLATFORM_MANAGED one that is read-only with its reason,
 * the chat application and external capabilities. Secrets are typed into password fields and must
 * not be found in the page, a request URL or the form once sent.
 */
import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { HUB_BIN, hub, hubEnv } from './support/hub';
import { pick } from './support/select';

const run = Date.now().toString(36);
const ORG = `conn-${run}`;
const OWNER = `connie-${run}`;
const PATH = `/o/${ORG}/connections`;
const SECRETS = {
  authToken: `sk-provider-token-${run}`,
  vendorApiKey: `vendor-key-${run}`,
  rotatedToken: `sk-rotated-token-${run}`,
  appSecret: `app-secret-${run}`,
  encryptKey: `encrypt-key-${run}`,
  header: `Bearer capability-token-${run}`,
  header2: `team-header-${run}`,
};

test.beforeAll(() => {
  hub(['org', 'create', ORG, '--name', 'Connections Lab', '--owner', OWNER, '--owner-name', 'Connie Owner']);
  execFileSync(
    process.execPath,
    [HUB_BIN, 'connection', 'platform', ORG, 'platform-llm', '--base-url', 'https://llm.platform.example/v1'],
    { env: { ...hubEnv(), HUB_PROVIDER_AUTH_TOKEN: `platform-token-${run}` }, encoding: 'utf8' },
  );
});

/** Every URL the page requests, to prove no secret ever travels in one. */
const requestedUrls: string[] = [];

test.beforeEach(async ({ page }) => {
  page.on('request', (r) => requestedUrls.push(r.url()));
  await signIn(page, OWNER);
  await page.goto(PATH);
  await expect(page.getByRole('heading', { name: 'Connections', level: 1 })).toBeVisible();
});

async function expectNoSecretLeft(page: Page) {
  const html = await page.content();
  for (const secret of Object.values(SECRETS)) {
    expect(html).not.toContain(secret);
    for (const url of requestedUrls) expect(url).not.toContain(secret);
  }
}

const providerRow = (page: Page, providerId: string) => page.locator(`tr[data-provider="${providerId}"]`);
const capabilityRow = (page: Page, capabilityId: string) => page.locator(`tr[data-capability="${capabilityId}"]`);

test('a PLATFORM_MANAGED connection is read-only and says why; rotating it is not offered', async ({ page }) => {
  const row = providerRow(page, 'platform-llm');
  await expect(row.getByText('PLATFORM_MANAGED')).toBeVisible();
  await expect(row.getByText('ACTIVE')).toBeVisible();
  await expect(row.getByText('v1', { exact: true })).toBeVisible();
  await expect(row.getByText(/^local-/)).toBeVisible();
  await expect(row.getByText('Managed by the platform operator')).toBeVisible();
  await expect(row.getByRole('button')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Rotate platform-llm' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Disable platform-llm' })).toHaveCount(0);

  // Typing its id into the create dialog reaches the server, whose refusal is shown; the secrets are emptied.
  await page.getByRole('button', { name: 'Add a provider connection' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a provider connection' });
  await dialog.getByLabel('Provider id').fill('platform-llm');
  await dialog.getByLabel('Base URL').fill('https://elsewhere.example');
  await dialog.getByLabel('Auth token').fill(SECRETS.authToken);
  await dialog.getByRole('button', { name: 'Create connection' }).click();
  await expect(dialog.getByRole('alert')).toContainText(
    'The platform-llm connection is managed by the platform operator; the organization cannot change it.',
  );
  await expect(dialog.getByLabel('Auth token')).toHaveValue('');
  await expect(dialog.getByText('the secret fields were emptied')).toBeVisible();
  await expectAccessible(page);
  await expectNoSecretLeft(page);
});

test('create, rotate and disable a BYOK provider connection', async ({ page }) => {
  await page.getByRole('button', { name: 'Add a provider connection' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a provider connection' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Auth token')).toHaveAttribute('type', 'password');
  await expect(dialog.getByLabel('Vendor API key (optional)')).toHaveAttribute('type', 'password');
  await expectAccessible(page);
  await screenshot(page, 'connections-provider-dialog');

  // A base URL the server refuses (plain http off loopback): its message, and nothing created.
  await dialog.getByLabel('Provider id').fill('openai');
  await dialog.getByLabel('Base URL').fill('http://api.openai.example/v1');
  await dialog.getByLabel('Auth token').fill(SECRETS.authToken);
  await dialog.getByRole('button', { name: 'Create connection' }).click();
  await expect(dialog.getByRole('alert')).toContainText('baseUrl');
  await expect(dialog.getByLabel('Auth token')).toHaveValue('');

  await dialog.getByLabel('Base URL').fill('https://api.openai.example/v1');
  await dialog.getByLabel('Auth token').fill(SECRETS.authToken);
  await dialog.getByLabel('Vendor API key (optional)').fill(SECRETS.vendorApiKey);
  const create = dialog.getByRole('button', { name: 'Create connection' });
  await create.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('openai: version 1 is active')).toBeVisible();
  const row = providerRow(page, 'openai');
  await expect(row.getByText('BYOK')).toBeVisible();
  await expect(row.getByText('ACTIVE')).toBeVisible();
  await expect(row.getByText('v1', { exact: true })).toBeVisible();
  await expectNoSecretLeft(page);

  await page.getByRole('button', { name: 'Rotate openai' }).click();
  const rotate = page.getByRole('dialog', { name: 'Rotate openai' });
  await expect(rotate.getByLabel('Auth token')).toHaveValue('');
  await expect(rotate.getByLabel('Provider id')).toHaveCount(0);
  await rotate.getByLabel('Base URL').fill('https://api.openai.example/v2');
  await rotate.getByLabel('Auth token').fill(SECRETS.rotatedToken);
  await rotate.getByRole('button', { name: 'Rotate' }).click();
  await expect(rotate).toBeHidden();
  await expect(page.getByText('openai: version 2 is active')).toBeVisible();
  await expect(row.getByText('v2', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Disable openai' }).click();
  const confirm = page.getByRole('dialog', { name: 'Disable openai?' });
  await expect(confirm).toBeVisible();
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Disable connection' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('openai is DISABLED')).toBeVisible();
  await expect(row.getByText('DISABLED')).toBeVisible();
  await expect(row.getByText('v2', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Disable openai' })).toBeDisabled();

  // Rotating a DISABLED connection makes it ACTIVE again with a new version.
  await page.getByRole('button', { name: 'Rotate openai' }).click();
  await rotate.getByLabel('Base URL').fill('https://api.openai.example/v2');
  await rotate.getByLabel('Auth token').fill(SECRETS.rotatedToken);
  await rotate.getByRole('button', { name: 'Rotate' }).click();
  await expect(rotate).toBeHidden();
  await expect(row.getByText('ACTIVE')).toBeVisible();
  await expect(row.getByText('v3', { exact: true })).toBeVisible();
  await expectNoSecretLeft(page);
});

test('connect, rotate and disable the chat application; only the fingerprint is shown', async ({ page }) => {
  const section = page.getByRole('region', { name: 'Chat application' });
  await expect(section.getByText('No chat application is connected yet.')).toBeVisible();
  await section.getByRole('button', { name: 'Connect the chat application' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect the chat application' });
  await expect(dialog.getByLabel('App secret')).toHaveAttribute('type', 'password');
  await expectAccessible(page);
  await screenshot(page, 'connections-chat-dialog');
  await dialog.getByLabel('App id').fill('cli_a1b2c3d4e5f6g7h8');
  await dialog.getByLabel('Bot open id').fill('ou_bot_1');
  await dialog.getByLabel('App secret').fill(SECRETS.appSecret);
  await dialog.getByLabel('Encrypt key (optional)').fill(SECRETS.encryptKey);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Chat application cli_a1…g7h8: version 1 is active')).toBeVisible();
  await expect(section.getByText('cli_a1…g7h8')).toBeVisible();
  await expect(section.getByText('ACTIVE')).toBeVisible();
  await expect(section.getByText('v1', { exact: true })).toBeVisible();
  await expect(section.getByText('cli_a1b2c3d4e5f6g7h8')).toHaveCount(0);

  await section.getByRole('button', { name: 'Rotate credentials' }).click();
  const rotate = page.getByRole('dialog', { name: 'Rotate the chat application' });
  await expect(rotate.getByLabel('App secret')).toHaveValue('');
  await rotate.getByLabel('App id').fill('cli_a1b2c3d4e5f6g7h8');
  await rotate.getByLabel('Bot open id').fill('ou_bot_1');
  await rotate.getByLabel('App secret').fill(SECRETS.appSecret);
  await rotate.getByRole('button', { name: 'Rotate' }).click();
  await expect(rotate).toBeHidden();
  await expect(section.getByText('v2', { exact: true })).toBeVisible();

  await section.getByRole('button', { name: 'Disable the chat application' }).click();
  const confirm = page.getByRole('dialog', { name: 'Disable the chat application?' });
  await confirm.getByRole('button', { name: 'Disable connection' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('The chat application is DISABLED')).toBeVisible();
  await expect(section.getByText('DISABLED')).toBeVisible();
  await expect(section.getByRole('button', { name: 'Disable the chat application' })).toBeDisabled();
  await expectNoSecretLeft(page);
});

test('create, rotate and disable a capability connection with secret headers', async ({ page }) => {
  await page.getByRole('button', { name: 'Add a capability connection' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a capability connection' });
  await dialog.getByLabel('Capability id').fill('web-search');
  await dialog.getByLabel('Label').fill('Web search');
  await pick(dialog, 'Kind', 'HTTP API');
  await dialog.getByLabel('Endpoint URL').fill('http://search.example/api');
  await dialog.getByLabel('Header 1 name').fill('Authorization');
  await dialog.getByLabel('Header 1 value').fill(SECRETS.header);
  await expect(dialog.getByLabel('Header 1 value')).toHaveAttribute('type', 'password');
  await dialog.getByRole('button', { name: 'Add a header' }).click();
  await dialog.getByLabel('Header 2 name').fill('X-Team');
  await dialog.getByLabel('Header 2 value').fill(SECRETS.header2);
  await expectAccessible(page);
  await screenshot(page, 'connections-capability-dialog');

  // Plain http off loopback: the server names endpointUrl; the header values are emptied, the names kept.
  await dialog.getByRole('button', { name: 'Create connection' }).click();
  await expect(dialog.getByRole('alert')).toContainText('endpointUrl');
  await expect(dialog.getByLabel('Header 1 value')).toHaveValue('');
  await expect(dialog.getByLabel('Header 2 value')).toHaveValue('');
  await expect(dialog.getByLabel('Header 1 name')).toHaveValue('Authorization');

  await dialog.getByLabel('Endpoint URL').fill('https://search.example/api');
  await dialog.getByLabel('Header 1 value').fill(SECRETS.header);
  await dialog.getByLabel('Header 2 value').fill(SECRETS.header2);
  await dialog.getByRole('button', { name: 'Create connection' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Web search: version 1 is active')).toBeVisible();
  const row = capabilityRow(page, 'web-search');
  await expect(row.getByText('https://search.example/api')).toBeVisible();
  await expect(row.getByText('http', { exact: true })).toBeVisible();
  await expect(row.getByText('ACTIVE')).toBeVisible();
  await expect(row.getByText('v1', { exact: true })).toBeVisible();
  await expectNoSecretLeft(page);

  // Two headers with one name (in any case) are refused before anything is sent.
  await page.getByRole('button', { name: 'Rotate Web search' }).click();
  const rotate = page.getByRole('dialog', { name: 'Rotate Web search' });
  await expect(rotate.getByLabel('Label')).toHaveValue('Web search');
  await expect(rotate.getByLabel('Header 1 value')).toHaveValue('');
  await rotate.getByLabel('Header 1 name').fill('Authorization');
  await rotate.getByLabel('Header 1 value').fill(SECRETS.header);
  await rotate.getByRole('button', { name: 'Add a header' }).click();
  await rotate.getByLabel('Header 2 name').fill('authorization');
  await rotate.getByRole('button', { name: 'Rotate' }).click();
  await expect(rotate.getByText('The header authorization is given twice')).toBeVisible();
  await rotate.getByRole('button', { name: 'Remove header 2' }).click();
  await rotate.getByLabel('Label').fill('Web search EU');
  await rotate.getByRole('button', { name: 'Rotate' }).click();
  await expect(rotate).toBeHidden();
  const renamed = capabilityRow(page, 'web-search');
  await expect(renamed.getByText('Web search EU')).toBeVisible();
  await expect(renamed.getByText('v2', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Disable Web search EU' }).click();
  const confirm = page.getByRole('dialog', { name: 'Disable Web search EU?' });
  await confirm.getByRole('button', { name: 'Disable connection' }).click();
  await expect(confirm).toBeHidden();
  await expect(renamed.getByText('DISABLED')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Disable Web search EU' })).toBeDisabled();
  await expectNoSecretLeft(page);
});

for (const width of [1280, 390]) {
  test(`the page at ${width} px is accessible in both themes and captured`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Connections', level: 1 })).toBeVisible();
    await expect(providerRow(page, 'platform-llm')).toBeVisible();
    // Wide tables scroll inside their own region; the page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    for (const scheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await expectAccessible(page);
      await screenshot(page, scheme === 'light' ? 'connections' : 'connections-dark');
    }
  });
}
