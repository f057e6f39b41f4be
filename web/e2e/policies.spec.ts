/**
 * Usage policies against the real server, in organizations of their own (one per width): a policy
 * of the organization is set, a second one is refused with the server's reason, the effective
 * result for a project and a member says which models are unavailable and why in sentences,
 * admission answers a tried run, the policy is edited and removed; the project page says the same
 * for a chosen member, and a budget can be made to block. At 1280 and 390 px, axe clean.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { apiAs, hub } from './support/hub';
import { pick } from './support/select';

const run = Date.now().toString(36);
const orgOf = (width: number) => `policy-${width}-${run}`;
const OWNER = `pia-${run}`;
const MEMBER = `max-${run}`;
const projects: Record<number, string> = {};

test.beforeAll(async () => {
  for (const width of [1280, 390]) {
    const org = orgOf(width);
    hub(['org', 'create', org, '--name', 'Policy Lab', '--owner', OWNER, '--owner-name', 'Pia Owner']);
    const owner = await apiAs(OWNER);
    await owner.call('POST', `/api/org/${org}/members`, {
      imOpenId: MEMBER,
      displayName: 'Max Member',
      role: 'MEMBER',
    });
    const member = await owner
      .call<{ userId: string }>('GET', `/api/org/${org}/members`)
      .then(
        (list) =>
          (list as unknown as { members: { userId: string; imOpenId: string }[] }).members.find(
            (m) => m.imOpenId === MEMBER,
          )!,
      );
    const project = await owner.call('POST', `/api/org/${org}/projects`, { name: 'Atlas' });
    const team = await owner.call('POST', `/api/org/${org}/teams`, { slug: 'readers', name: 'Readers' });
    await owner.call('POST', `/api/org/${org}/teams/${team.id}/members`, { userId: member.userId });
    await owner.call('PUT', `/api/org/${org}/projects/${project.id}/team-access`, { teamId: team.id, role: 'READ' });
    projects[width] = project.id;
  }
});

async function setOrganizationPolicy(page: Page, models: string) {
  const form = page.getByRole('form', { name: 'Set a usage policy' });
  await pick(form, 'Models', 'Only these');
  await form.getByLabel('Models allowed').fill(models);
  await form.getByRole('button', { name: 'Set policy' }).click();
}

for (const width of [1280, 390]) {
  test(`set, explain, edit and remove a usage policy at ${width} px`, async ({ page }) => {
    const org = orgOf(width);
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await signIn(page, OWNER);
    await page.goto(`/o/${org}/policies`);
    await expect(page.getByRole('heading', { level: 1, name: 'Usage policies' })).toBeVisible();
    await expect(page.getByText('No policy yet')).toBeVisible();

    await setOrganizationPolicy(page, 'gpt-5');
    const card = page.getByTestId('policy-organization');
    await expect(card).toContainText('Models: gpt-5 · Providers: any · Capabilities: any');

    // Refused by the server: its reason, nothing more stored.
    await setOrganizationPolicy(page, 'gpt-5-mini');
    await expect(page.getByRole('alert').filter({ hasText: 'The policy was not set' })).toContainText(
      'already has its own usage policy',
    );
    await expect(page.getByTestId('policy-organization')).toHaveCount(1);

    const effective = page.getByRole('region', { name: 'Effective result' });
    await pick(effective, 'Project', 'Atlas');
    await pick(effective, 'Member', 'Max Member');
    const models = effective.getByTestId('model-availability');
    await expect(models).toContainText(/1 of \d+ models are available/);
    await expect(models).toContainText(`Why: The organization's usage policy does not allow the model "gpt-5-mini".`);
    await pick(effective, 'Model of the run', 'GPT-5');
    await effective.getByRole('button', { name: 'Ask admission' }).click();
    await expect(effective.getByRole('status')).toContainText('The run may start');
    await pick(effective, 'Model of the run', 'GPT-5 mini');
    await effective.getByRole('button', { name: 'Ask admission' }).click();
    await expect(effective.getByRole('status')).toContainText('The run may not start');
    await expectAccessible(page);
    await screenshot(page, `policies-${width}`);

    await card.getByRole('button', { name: 'Edit the policy of The organization' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the policy of The organization' });
    await pick(dialog, 'Models', 'Any (no narrowing)');
    await dialog.getByRole('button', { name: 'Save policy' }).click();
    await expect(dialog).toBeHidden();
    await expect(card).toContainText('Models: any');
    await expect(models).toContainText(/(\d+) of \1 models are available/);

    await card.getByRole('button', { name: 'Remove the policy of The organization' }).click();
    await page
      .getByRole('dialog', { name: 'Remove the policy of The organization?' })
      .getByRole('button', { name: 'Remove policy' })
      .click();
    await expect(page.getByText('No policy yet')).toBeVisible();

    // The project page answers the same question for a member it names.
    await setOrganizationPolicy(page, 'claude-opus-4-1');
    await expect(page.getByTestId('policy-organization')).toBeVisible();
    await page.goto(`/o/${org}/projects/${projects[width]}`);
    const here = page.getByRole('region', { name: 'Models here' });
    await pick(here, 'Member', 'Max Member');
    await expect(here.getByTestId('model-availability')).toContainText('Why: The organization');
    await expectAccessible(page);
  });
}

test('a budget can be set to block new runs', async ({ page }) => {
  const org = orgOf(1280);
  await signIn(page, OWNER);
  await page.goto(`/o/${org}/usage/budgets`);
  const form = page.getByRole('form', { name: 'Add a budget' });
  await form.getByLabel('Name').fill('Hard cap');
  await form.getByLabel('Amount (USD)').fill('10');
  await pick(form, 'At the amount', 'Block new runs');
  await form.getByRole('button', { name: 'Add budget' }).click();
  await expect(page.getByTestId('budget-Hard cap')).toContainText('blocks new runs at the amount');
  await expectAccessible(page);
});
