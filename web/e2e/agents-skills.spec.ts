/**
 * Agent skills against the real server, in an organization of their own (`agents-skills`, OWNER
 * agnes): install from a folder (the directory input) and by dropping files, the server's
 * refusal, the files, relabel, move to a folder, and disable with the roles it affects named.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, menuAction, screenshot, signIn, test } from './support/fixtures';
import { apiAs, hub } from './support/hub';
import { pick, selectBox } from './support/select';

const ORG = 'agents-skills';
const API = `/api/org/${ORG}`;
const PAGE = `/o/${ORG}/agents/skills`;
const ROOT = mkdtempSync(join(tmpdir(), 'hub-e2e-skills-'));

/** Writes a skill folder on disk, as a person would have it before picking it in the browser. */
function folder(name: string, files: Record<string, string | Buffer>): string {
  const dir = join(ROOT, name);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

/** The content address the server must give: `sha256sum` of every file, sorted by path, hashed again. */
function digestOf(dir: string): string {
  const paths: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else paths.push(relative(dir, p).split('\\').join('/'));
    }
  };
  walk(dir);
  paths.sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1));
  const manifest = paths
    .map(
      (p) =>
        `${createHash('sha256')
          .update(readFileSync(join(dir, p)))
          .digest('hex')}  ${p}\n`,
    )
    .join('');
  return createHash('sha256').update(manifest).digest('hex');
}

const PDF_MD = '---\nname: pdf-tools\ndescription: Reads and writes PDF files\nversion: 1.2.0\n---\n# PDF tools\n';

test.beforeAll(async () => {
  try {
    hub(['org', 'create', ORG, '--name', 'Agent Skills Lab', '--owner', 'agnes', '--owner-name', 'Agnes Admin']);
  } catch (e) {
    if (!/is taken/.test(String(e))) throw e;
    return;
  }
  const owner = await apiAs('agnes');
  await owner.call('POST', `${API}/agent-library/folders`, { name: 'Documents' });
  await owner.call('PUT', `${API}/agent-roles/researcher`, { label: 'Researcher' });
  await owner.call('PUT', `${API}/agent-roles/writer`, { label: 'Writer' });
});

const rowOf = (page: Page, name: string) =>
  page
    .getByRole('table', { name: 'Agent skills' })
    .getByRole('row')
    .filter({ has: page.getByText(name, { exact: true }) });

test('install from a folder, see its files, relabel, move, new version', async ({ page }) => {
  const pdf = folder('pdf-tools', {
    'SKILL.md': PDF_MD,
    'scripts/extract.py': 'print("extract")\n',
    'reference/forms.md': '\uFEFF# Forms\r\nFill them in.\r\n',
  });
  await signIn(page, 'agnes');
  await page.goto(PAGE);
  await expect(page.getByText('No skill installed yet.')).toBeVisible();

  await page.getByRole('button', { name: 'Install skill' }).click();
  const dialog = page.getByRole('dialog', { name: 'Install a skill' });
  await dialog.locator('input[aria-label="Skill folder"]').setInputFiles(pdf);
  await expect(dialog.getByText('3 text files from pdf-tools/')).toBeVisible();
  await expect(dialog.getByRole('region', { name: 'Files to install' })).toContainText('scripts/extract.py');
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue('pdf-tools');
  await expect(dialog.getByRole('textbox', { name: 'Version' })).toHaveValue('1.2.0');
  await expectAccessible(page);
  await screenshot(page, 'agents-skills-install-dialog');
  await dialog.getByRole('button', { name: 'Install skill' }).click();
  await expect(dialog).toBeHidden();
  const row = rowOf(page, 'pdf-tools');
  await expect(row).toContainText('Reads and writes PDF files');
  await expect(row).toContainText('1.2.0');
  // The digest is the one `sha256sum` gives for the folder: byte for byte, a BOM and CRLF included
  const digest = digestOf(pdf);
  await expect(row.getByTitle(digest)).toHaveText(`${digest.slice(0, 12)}…`);

  // Its files, as stored
  await menuAction(page, 'pdf-tools', 'View files…');
  const files = page.getByRole('dialog', { name: 'Files of pdf-tools 1.2.0' });
  await expect(files.getByRole('region', { name: 'Content of SKILL.md' })).toContainText('# PDF tools');
  await pick(files, /^File/, /^scripts\/extract\.py/);
  await expect(files.getByRole('region', { name: 'Content of scripts/extract.py' })).toContainText('print("extract")');
  await expectAccessible(page);
  await screenshot(page, 'agents-skills-files-dialog');
  await files.getByRole('button', { name: 'Close' }).first().click();

  // Relabel
  await menuAction(page, 'pdf-tools', 'Relabel…');
  const relabel = page.getByRole('dialog', { name: 'Relabel pdf-tools' });
  await relabel.getByLabel('Description').fill('PDF in and out');
  await relabel.getByRole('button', { name: 'Save label' }).click();
  await expect(relabel).toBeHidden();
  await expect(row).toContainText('PDF in and out');

  // Into a library folder
  await menuAction(page, 'pdf-tools', 'Move to folder…');
  const move = page.getByRole('dialog', { name: 'Move pdf-tools' });
  await pick(move, 'Destination folder', 'Documents');
  await move.getByRole('button', { name: 'Move here' }).click();
  await expect(move).toBeHidden();
  await expect(page.getByText('Moved pdf-tools to Documents')).toBeVisible();
  await expect(row).toContainText('Documents');

  // A new version replaces the content and keeps the place; the label comes from the new SKILL.md
  const v2 = folder('pdf-tools-v2', { 'SKILL.md': PDF_MD.replace('1.2.0', '1.3.0'), 'notes.txt': 'new\n' });
  await menuAction(page, 'pdf-tools', 'Install new version…');
  const again = page.getByRole('dialog', { name: 'Install a new version of pdf-tools' });
  await again.locator('input[aria-label="Skill folder"]').setInputFiles(v2);
  await expect(again.getByRole('textbox', { name: 'Version' })).toHaveValue('1.3.0');
  await expect(again.getByText('Replaces version 1.2.0 of pdf-tools')).toBeVisible();
  await again.getByRole('button', { name: 'Install new version' }).click();
  await expect(again).toBeHidden();
  await expect(row).toContainText('1.3.0');
  await expect(row).toContainText('Reads and writes PDF files');
  await expect(row).toContainText('Documents');
});

test('the server refuses an invalid skill, and files that are not text are named', async ({ page }) => {
  const bad = folder('no-front-matter', { 'SKILL.md': '# No front matter here\n', 'a.txt': 'a\n' });
  const binary = folder('with-logo', {
    'SKILL.md': '---\nname: with-logo\n---\n# Logo\n',
    'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00]),
  });
  await signIn(page, 'agnes');
  await page.goto(PAGE);
  await page.getByRole('button', { name: 'Install skill' }).click();
  const dialog = page.getByRole('dialog', { name: 'Install a skill' });
  await dialog.locator('input[aria-label="Skill folder"]').setInputFiles(bad);
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue('no-front-matter');
  await dialog.getByRole('button', { name: 'Install skill' }).click();
  const refusal = dialog.getByRole('alert').filter({ hasText: 'The skill was not installed' });
  await expect(refusal).toContainText('SKILL.md');
  await expect(refusal).toContainText('nothing was installed');
  await expectAccessible(page);
  await screenshot(page, 'agents-skills-invalid');

  // A binary file: named, and installing waits until the person agrees to leave it out
  await dialog.locator('input[aria-label="Skill folder"]').setInputFiles(binary);
  await expect(dialog.getByText('Skills hold text only')).toContainText('logo.png');
  await expect(dialog.getByRole('button', { name: 'Install skill' })).toBeDisabled();
  await dialog.getByLabel('Leave this file out').check();
  await dialog.getByRole('button', { name: 'Install skill' }).click();
  await expect(dialog).toBeHidden();
  await expect(rowOf(page, 'with-logo')).toContainText('0.0.0');
  await menuAction(page, 'with-logo', 'View files…');
  const files = page.getByRole('dialog', { name: 'Files of with-logo 0.0.0' });
  // One file is offered, SKILL.md: the binary one was left out.
  await expect(selectBox(files, 'File (1)')).toHaveValue(/^SKILL\.md/);
  await expect(files).not.toContainText('logo.png');
});

test('install by dropping files', async ({ page }) => {
  await signIn(page, 'agnes');
  await page.goto(PAGE);
  await page.getByRole('button', { name: 'Install skill' }).click();
  const dialog = page.getByRole('dialog', { name: 'Install a skill' });
  const dataTransfer = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['---\nname: meeting-notes\ndescription: Takes notes\n---\n# Notes\n'], 'SKILL.md'));
    dt.items.add(new File(['- agenda\n'], 'template.md'));
    return dt;
  });
  await dialog.getByTestId('skill-drop-zone').dispatchEvent('drop', { dataTransfer });
  await expect(dialog.getByText('2 text files')).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue('meeting-notes');
  await dialog.getByRole('textbox', { name: 'Version' }).fill('2026.1');
  await dialog.getByRole('button', { name: 'Install skill' }).click();
  await expect(dialog).toBeHidden();
  await expect(rowOf(page, 'meeting-notes')).toContainText('2026.1');
});

test('disable says which roles lose their open sessions, then enable', async ({ page }) => {
  const owner = await apiAs('agnes');
  await owner.call('PUT', `${API}/agent-skills/web-research`, {
    version: '1.0.0',
    files: [{ path: 'SKILL.md', content: '---\nname: web-research\n---\n# Research\n' }],
  });
  await owner.call('PUT', `${API}/agent-skills/lonely`, {
    version: '1.0.0',
    files: [{ path: 'SKILL.md', content: '---\nname: lonely\n---\n# Alone\n' }],
  });
  await owner.call('PUT', `${API}/agent-roles/researcher/skills`, { skillNames: ['web-research'] });
  await owner.call('PUT', `${API}/agent-roles/writer/skills`, { skillNames: ['web-research'] });

  await signIn(page, 'agnes');
  await page.goto(PAGE);
  const row = rowOf(page, 'web-research');
  await expect(row).toContainText('Researcher');
  await expect(row).toContainText('Writer');

  await menuAction(page, 'web-research', 'Disable…');
  const dialog = page.getByRole('dialog', { name: 'Disable web-research?' });
  await expect(dialog).toContainText('Every open session of these 2 roles, bound to web-research, is archived now');
  await expect(dialog.getByRole('listitem')).toHaveText(['Researcher (researcher)', 'Writer (writer)']);
  await expectAccessible(page);
  await screenshot(page, 'agents-skills-disable-dialog');
  await dialog.getByRole('button', { name: 'Disable skill' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('the open sessions of 2 roles were archived')).toBeVisible();
  await expect(row).toContainText('disabled');

  await menuAction(page, 'web-research', 'Enable');
  await expect(page.getByText('Enabled web-research')).toBeVisible();
  await expect(row).not.toContainText('disabled');

  await menuAction(page, 'lonely', 'Disable…');
  const lonely = page.getByRole('dialog', { name: 'Disable lonely?' });
  await expect(lonely).toContainText('No role is bound to lonely, so no session is archived.');
  await lonely.getByRole('button', { name: 'Disable skill' }).click();
  await expect(rowOf(page, 'lonely')).toContainText('disabled');
});

for (const width of [1280, 390]) {
  test(`the skills page at ${width} px is accessible in both themes and captured`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await signIn(page, 'agnes');
    await page.goto(PAGE);
    await expect(page.getByRole('heading', { level: 1, name: 'Agent skills' })).toBeVisible();
    await expect(page.getByRole('status', { name: 'Loading' })).toHaveCount(0);
    for (const scheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await expectAccessible(page);
    }
    await screenshot(page, 'agents-skills');
    await page.getByRole('button', { name: 'Install skill' }).click();
    await expect(page.getByRole('dialog', { name: 'Install a skill' })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'agents-skills-install');
  });
}
