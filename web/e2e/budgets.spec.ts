/**
 * The Budgets tab under Usage against the real server, in an organization of its own with runs
 * ingested this month: a budget is added, shows this period's spend as a bar and in words, is
 * named on the Usage page when at risk, is edited and deleted; a refused budget shows the server's
 * reason. At 1280 and 390 px, axe clean. A budget of one member counts the runs they started; a
 * per-member budget lists the members over a threshold, each linked to their usage.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { apiAs, hub } from './support/hub';
import { pick } from './support/select';

const run = Date.now().toString(36);
const ORG = `budget-${run}`;
const OWNER = `bea-${run}`;
const PATH = `/o/${ORG}/usage/budgets`;

test.beforeAll(async () => {
  hub(['org', 'create', ORG, '--name', 'Budget Lab', '--owner', OWNER, '--owner-name', 'Bea Owner']);
  const owner = await apiAs(OWNER);
  const project = await owner.call('POST', `/api/org/${ORG}/projects`, { name: 'Atlas' });
  const line = {
    projectId: project.id,
    sessionId: `${ORG}-s1`,
    provider: 'anthropic',
    roleId: 'coder',
    model: 'claude-test',
    at: new Date().toISOString(),
    inputTokens: 1000,
    outputTokens: 200,
    costUsd: 45,
    initiatedBy: { type: 'member', imOpenId: OWNER },
  };
  const file = join(tmpdir(), `${ORG}-runs.jsonl`);
  writeFileSync(file, `${JSON.stringify(line)}\n`);
  hub(['usage', 'ingest', file, '--org', ORG]);
});

async function addBudget(page: Page, name: string, amount: string, thresholds = '50, 80, 100') {
  const form = page.getByRole('form', { name: 'Add a budget' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Amount (USD)').fill(amount);
  await form.getByLabel('Alert at (% of the amount)').fill(thresholds);
  await form.getByRole('button', { name: 'Add budget' }).click();
}

for (const width of [1280, 390]) {
  test(`add, see at risk, edit and delete a budget at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await signIn(page, OWNER);
    await page.goto(PATH);
    await expect(page.getByRole('heading', { level: 1, name: 'Budgets' })).toBeVisible();
    await expect(page.getByText('No budget yet.')).toBeVisible();

    // Refused by the server: its reason, nothing stored.
    await addBudget(page, 'Backwards', '50', '100, 50');
    await expect(page.getByRole('alert').filter({ hasText: 'The budget was not added' })).toContainText(/threshold/i);
    await expect(page.getByText('No budget yet.')).toBeVisible();

    const name = `Monthly ${width}`;
    await addBudget(page, name, '50');
    const card = page.getByTestId(`budget-${name}`);
    await expect(card).toContainText('$45.00 of $50.00 · 90 % · warning');
    await expect(card.getByRole('progressbar')).toHaveAccessibleName(`${name}: $45.00 of $50.00 · 90 % · warning`);
    await expectAccessible(page);
    await screenshot(page, `budgets-${width}`);

    await page.getByRole('link', { name: 'Report' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
    await expect(page.getByText('1 budget at risk')).toBeVisible();
    await expect(page.getByText(`${name}: $45.00 of $50.00 · 90 % · warning`)).toBeVisible();
    await page.getByRole('link', { name: 'See the budgets' }).click();

    await card.getByRole('button', { name: `Edit ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${name}` });
    await dialog.getByLabel('Amount (USD)').fill('40');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(card).toContainText('$45.00 of $40.00 · 112 % · exceeded');

    await card.getByRole('button', { name: `Delete ${name}` }).click();
    await page
      .getByRole('dialog', { name: `Delete ${name}?` })
      .getByRole('button', { name: 'Delete budget' })
      .click();
    await expect(page.getByText('No budget yet.')).toBeVisible();
  });
}

test('a budget of one member counts the runs they started', async ({ page }) => {
  await signIn(page, OWNER);
  await page.goto(PATH);
  await expect(page.getByRole('heading', { level: 1, name: 'Budgets' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Add a budget' });
  await pick(form, 'Covers', 'One member (their runs and their tokens’)');
  await pick(form, 'Member', `Bea Owner (${OWNER})`);
  await addBudget(page, 'Bea monthly', '100');
  const card = page.getByTestId('budget-Bea monthly');
  await expect(card).toContainText('Member Bea Owner');
  await expect(card).toContainText('$45.00 of $100.00 · 45 % · ok');
  await expectAccessible(page);
  await card.getByRole('button', { name: 'Delete Bea monthly' }).click();
  await page
    .getByRole('dialog', { name: 'Delete Bea monthly?' })
    .getByRole('button', { name: 'Delete budget' })
    .click();
  await expect(page.getByText('No budget yet.')).toBeVisible();
});

for (const width of [1280, 390]) {
  test(`a budget per member names who is over a threshold, linked to their usage, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await signIn(page, OWNER);
    await page.goto(PATH);
    await expect(page.getByRole('heading', { level: 1, name: 'Budgets' })).toBeVisible();
    const form = page.getByRole('form', { name: 'Add a budget' });
    // Only scopes with members offer an allowance each; tokens and service accounts are scopes too.
    await pick(form, 'Covers', 'One service account (its runs and its tokens’)');
    await expect(form.getByLabel('Each member gets this amount')).toHaveCount(0);
    await pick(form, 'Covers', 'One API token (the runs started through it)');
    await expect(form.getByLabel('Each member gets this amount')).toHaveCount(0);
    await pick(form, 'Covers', 'The whole organization');
    await form.getByLabel('Each member gets this amount').check();
    const name = `Each ${width}`;
    await addBudget(page, name, '50');
    const card = page.getByTestId(`budget-${name}`);
    await expect(card).toContainText('each member');
    await expect(card).toContainText('1 member at or over 50 %');
    const members = card.getByRole('table', { name: `Members over a threshold of ${name}` });
    await expect(members.getByRole('row')).toHaveCount(2);
    await expect(members).toContainText('$45.00 · 90 %');
    await expectAccessible(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await members.getByRole('link', { name: 'Bea Owner' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
    await expect(page.getByTestId('usage-member-filter')).toContainText('Only Bea Owner');
    await expect(page.getByTestId('usage-row')).toHaveCount(1);
    await page.goto(PATH);
    await card.getByRole('button', { name: `Delete ${name}` }).click();
    await page
      .getByRole('dialog', { name: `Delete ${name}?` })
      .getByRole('button', { name: 'Delete budget' })
      .click();
    await expect(page.getByText('No budget yet.')).toBeVisible();
  });
}
