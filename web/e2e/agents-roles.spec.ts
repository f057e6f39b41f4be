/**
 * Agent roles against the real server, in an organization of their own (`agents-roles`, OWNER
 * agnes) so that nothing here changes what the other specs see.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, menuAction, screenshot, signIn, test } from './support/fixtures';
import { apiAs, hub } from './support/hub';
import { pick } from './support/select';

const ORG = 'agents-roles';
const API = `/api/org/${ORG}`;
const PAGE = `/o/${ORG}/agents/roles`;

/** The organization is made once; a worker started after a failure finds it there. */
test.beforeAll(async () => {
  try {
    hub(['org', 'create', ORG, '--name', 'Agent Roles Lab', '--owner', 'agnes', '--owner-name', 'Agnes Admin']);
  } catch (e) {
    if (!/is taken/.test(String(e))) throw e;
    return;
  }
  const owner = await apiAs('agnes');
  for (const name of ['web-search', 'summarize'])
    await owner.call('PUT', `${API}/agent-skills/${name}`, {
      version: '1.0.0',
      files: [{ path: 'SKILL.md', content: `---\nname: ${name}\ndescription: The ${name} skill\n---\n# ${name}\n` }],
    });
  await owner.call('POST', `${API}/agent-library/folders`, { name: 'Support desk' });
});

/** The row of a role, found by its exact roleId. */
const rowOf = (page: Page, roleId: string) =>
  page
    .getByRole('table', { name: 'Agent roles' })
    .getByRole('row')
    .filter({ has: page.getByText(roleId, { exact: true }) });

test('roles: create with the model picker, prompt and tools; skills; order; edit; default; disable', async ({
  page,
}) => {
  await signIn(page, 'agnes');
  await page.goto(PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'Agent roles' })).toBeVisible();
  await expect(page.getByText('No role yet: create the first one.')).toBeVisible();

  // Create: every part of the definition
  await page.getByRole('button', { name: 'New role' }).click();
  const create = page.getByRole('dialog', { name: 'New role' });
  await create.getByLabel('Role id').fill('lead');
  await create.getByRole('textbox', { name: 'Label', exact: true }).fill('Lead');
  await pick(create, 'Default model', /Claude Sonnet 4\.5/);
  await create.getByLabel('System prompt').fill('You lead the team.\nBe brief.');
  await create.getByText('Only these', { exact: true }).click();
  const tools = create.getByRole('combobox', { name: 'Tool names' });
  await tools.fill('web_search');
  await tools.press('Enter');
  await tools.fill('read_file');
  await tools.press('Enter');
  await pick(create, 'Library folder', 'Support desk');
  await create.getByRole('switch', { name: /^Default role/ }).check();
  await expectAccessible(page);
  await screenshot(page, 'agents-roles-create-dialog');
  await create.getByRole('button', { name: 'Create role' }).click();
  await expect(create).toBeHidden();
  await expect(page.getByText('Created role Lead')).toBeVisible();
  const lead = rowOf(page, 'lead');
  await expect(lead).toContainText('default');
  await expect(lead).toContainText('Claude Sonnet 4.5');
  await expect(lead).toContainText('web_search, read_file');
  await expect(lead).toContainText('Support desk');
  const saved = await (await apiAs('agnes')).call<{ roles: { systemPrompt: string; tools: string[] }[] }>(
    'GET',
    `${API}/agent-roles`,
  );
  expect(saved.roles[0]).toMatchObject({
    systemPrompt: 'You lead the team.\nBe brief.',
    tools: ['web_search', 'read_file'],
  });

  // An id that exists is refused before anything is sent (a PUT would replace the role)
  await page.getByRole('button', { name: 'New role' }).click();
  await create.getByLabel('Role id').fill('lead');
  await create.getByRole('textbox', { name: 'Label', exact: true }).fill('Second lead');
  await create.getByRole('button', { name: 'Create role' }).click();
  await expect(create.getByText('A role with this id exists: edit it instead')).toBeVisible();
  // The server's refusal stays in the dialog: a label over 200 characters
  await create.getByLabel('Role id').fill('support');
  await create.getByRole('textbox', { name: 'Label', exact: true }).fill('S'.repeat(201));
  await create.getByRole('button', { name: 'Create role' }).click();
  await expect(create.getByRole('alert')).toContainText(/label/i);
  await create.getByRole('textbox', { name: 'Label', exact: true }).fill('Support');
  await create.getByText('No tools', { exact: true }).click();
  await create.getByRole('button', { name: 'Create role' }).click();
  await expect(create).toBeHidden();
  await expect(rowOf(page, 'support')).toContainText('runtime default');

  // Skill bindings
  await menuAction(page, 'Lead', 'Skills…');
  const skills = page.getByRole('dialog', { name: 'Skills of Lead' });
  const bound = skills
    .getByRole('combobox', { name: 'Bound skills' })
    .or(skills.getByRole('textbox', { name: 'Bound skills' }));
  await bound.click();
  await page.getByRole('option', { name: 'web-search' }).click();
  await page.getByRole('option', { name: 'summarize' }).click();
  await bound.press('Escape');
  await expectAccessible(page);
  await skills.getByRole('button', { name: 'Save skills' }).click();
  await expect(skills).toBeHidden();
  await expect(page.getByText('Lead now has 2 skills')).toBeVisible();
  await expect(lead).toContainText('summarize');

  // Order: Support (created last) moves above Lead, and stays there after a reload
  const firstRow = page.getByRole('table', { name: 'Agent roles' }).getByRole('row').nth(1);
  await expect(firstRow).toContainText('lead');
  await menuAction(page, 'Support', 'Move up');
  await expect(page.getByText('Moved Support up')).toBeVisible();
  await expect(firstRow).toContainText('support');
  await page.reload();
  await expect(firstRow).toContainText('support');
  await expect(lead).toContainText('default'); // reordering kept the default flag

  // The default role cannot be disabled: the action says why
  await page.getByRole('button', { name: 'Actions for Lead' }).click();
  await expect(page.getByRole('menuitem', { name: 'Disable…' })).toBeDisabled();
  await expect(page.getByText('The default role cannot be disabled')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden(); // closed, not still fading out beside the next one

  // Disable: the consequence first
  await menuAction(page, 'Support', 'Disable…');
  const disable = page.getByRole('dialog', { name: 'Disable Support?' });
  await expect(disable).toContainText('Every open session that runs as Support (support) is archived now');
  await expectAccessible(page);
  await screenshot(page, 'agents-roles-disable-dialog');
  await disable.getByRole('button', { name: 'Disable role' }).click();
  await expect(disable).toBeHidden();
  await expect(rowOf(page, 'support')).toContainText('disabled');

  // A disabled role cannot become the default; edit it otherwise
  await menuAction(page, 'Support', 'Edit…');
  const edit = page.getByRole('dialog', { name: 'Edit role Support' });
  await expect(edit.getByRole('switch', { name: /^Default role/ })).toBeDisabled();
  await edit.getByRole('textbox', { name: 'Label', exact: true }).fill('Support desk agent');
  await edit.getByRole('button', { name: 'Save role' }).click();
  await expect(edit).toBeHidden();
  await expect(rowOf(page, 'support')).toContainText('Support desk agent');

  // Enable, then make it the default: Lead loses the flag
  await menuAction(page, 'Support desk agent', 'Enable');
  await expect(page.getByText('Enabled role Support desk agent')).toBeVisible();
  await expect(rowOf(page, 'support')).not.toContainText('disabled');
  await menuAction(page, 'Support desk agent', 'Edit…');
  const edit2 = page.getByRole('dialog', { name: 'Edit role Support desk agent' });
  await edit2.getByRole('switch', { name: /^Default role/ }).check();
  await expect(edit2.getByText('Takes the default from Lead.')).toBeVisible();
  await edit2.getByRole('button', { name: 'Save role' }).click();
  await expect(edit2).toBeHidden();
  await expect(rowOf(page, 'support')).toContainText('default');
  await expect(lead).not.toContainText('default');
});

test('a MEMBER is sent to My projects from every agents page', async ({ page }) => {
  await signIn(page, 'mia');
  for (const screen of ['roles', 'skills', 'library']) {
    await page.goto(`/o/acme/agents/${screen}`);
    await expect(page).toHaveURL(/\/o\/acme\/my-projects\?notice=admin-only/);
    await expect(page.getByTestId('access-notice')).toContainText('for organization admins');
  }
});

for (const width of [1280, 390]) {
  test(`the roles page at ${width} px is accessible in both themes and captured`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await signIn(page, 'agnes');
    await page.goto(PAGE);
    await expect(page.getByRole('heading', { level: 1, name: 'Agent roles' })).toBeVisible();
    await expect(page.getByRole('status', { name: 'Loading' })).toHaveCount(0);
    for (const scheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await expectAccessible(page);
    }
    await screenshot(page, 'agents-roles');
    await page.getByRole('button', { name: 'New role' }).click();
    await expect(page.getByRole('dialog', { name: 'New role' })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'agents-roles-new');
  });
}
