/**
 * The usage screen against the real server. The spec brings its own organization (so what other
 * specs create in `acme` never changes its figures): folders Research / Lab, projects Atlas (in
 * Lab), Beacon (in Research) and one whose name is a spreadsheet formula (top level), a capability
 * connection whose label is a formula too, and runs loaded with `hub usage ingest`: June 2025 for
 * the custom range, plus one run today and one 40 days ago for the presets.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { apiAs, hub } from './support/hub';
import { pick, selectBox } from './support/select';

const OWNER = 'uma-usage';
const FORMULA = '=HYPERLINK("http://evil.example","click")';
// Unique per worker: a worker restarted after a failure seeds afresh (session ids are global too).
const org = `usage-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const JUNE = `/o/${org}/usage?from=2025-06-01&to=2025-06-30`;
let ids: { atlas: string; beacon: string; formula: string; research: string; lab: string };

const DAY_MS = 86_400_000;
const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);

type Fact = { kind: string; capabilityId?: string; quantity: number; unit: string; costUsd: number | null };
const run = (
  projectId: string,
  sessionId: string,
  at: string,
  inputTokens: number,
  outputTokens: number,
  costUsd: number | null,
  facts: Fact[] = [],
) => ({
  projectId,
  sessionId: `${org}-${sessionId}`,
  provider: 'anthropic',
  roleId: 'coder',
  model: 'claude-test',
  at,
  inputTokens,
  outputTokens,
  costUsd,
  facts,
});

test.beforeAll(async () => {
  hub(['org', 'create', org, '--name', 'Usage Co', '--owner', OWNER, '--owner-name', 'Uma Usage']);
  const owner = await apiAs(OWNER);
  const api = `/api/org/${org}`;
  const research = await owner.call('POST', `${api}/folders`, { name: 'Research' });
  const lab = await owner.call('POST', `${api}/folders`, { name: 'Lab', parentId: research.id });
  const atlas = await owner.call('POST', `${api}/projects`, { name: 'Atlas', folderId: lab.id });
  const beacon = await owner.call('POST', `${api}/projects`, { name: 'Beacon', folderId: research.id });
  const formula = await owner.call('POST', `${api}/projects`, { name: FORMULA });
  // A capability connection names its capability in the breakdown; this label is a formula too.
  await owner.call('PUT', `${api}/capability-connections/web-search`, {
    label: '@Web Search',
    kind: 'http',
    endpointUrl: 'https://search.example.com/v1',
  });
  ids = { atlas: atlas.id, beacon: beacon.id, formula: formula.id, research: research.id, lab: lab.id };
  const now = Date.now();
  const runs = [
    run(atlas.id, 'atlas-1', '2025-06-03T10:00:00Z', 1000, 200, 1.25, [
      { kind: 'model', quantity: 1200, unit: 'tokens', costUsd: 1.0 },
      { kind: 'tool', quantity: 3, unit: 'calls', costUsd: null },
      { kind: 'capability', capabilityId: 'web-search', quantity: 2, unit: 'calls', costUsd: 0.25 },
    ]),
    run(atlas.id, 'atlas-1', '2025-06-20T10:00:00Z', 500, 100, null, [
      { kind: 'capability', capabilityId: 'vector-db', quantity: 5, unit: 'calls', costUsd: null },
    ]),
    run(beacon.id, 'beacon-1', '2025-06-30T23:59:59Z', 3000, 900, 0.5, [
      { kind: 'model', quantity: 3900, unit: 'tokens', costUsd: 0.5 },
    ]),
    run(formula.id, 'formula-1', '2025-06-15T08:00:00Z', 10, 5, null),
    // Outside June 2025: the last day is included, the next is not.
    run(beacon.id, 'beacon-1', '2025-07-01T00:00:00Z', 7, 7, 9),
    // For the presets: today (in this month and in the last 30 days) and 40 days ago (in neither).
    run(atlas.id, 'atlas-now', `${dayOf(now)}T00:00:01Z`, 40, 2, 0.02),
    run(beacon.id, 'beacon-old', `${dayOf(now - 40 * DAY_MS)}T12:00:00Z`, 60, 6, 0.06),
  ];
  const file = join(tmpdir(), `${org}-runs.jsonl`);
  writeFileSync(file, `${runs.map((r) => JSON.stringify(r)).join('\n')}\n`);
  hub(['usage', 'ingest', file, '--org', org]);
});

const report = (page: Page) => page.getByRole('table', { name: 'Usage per project' });
const projectNames = (page: Page) => report(page).locator('tbody tr[data-testid="usage-row"] th').allInnerTexts();

async function open(page: Page, path: string) {
  await signIn(page, OWNER);
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
  await expect(page.getByTestId('usage-summary')).not.toHaveText(/Loading|Updating/);
}

test('a custom range: rows, totals with unknown costs, sorting kept in the URL', async ({ page }) => {
  await open(page, `/o/${org}/usage`);
  await page.getByLabel('From', { exact: true }).fill('2025-06-01');
  await page.getByLabel('To', { exact: true }).fill('2025-06-30');
  await page.getByRole('button', { name: 'Apply range' }).click();
  await expect(page).toHaveURL(/from=2025-06-01&to=2025-06-30/);
  await expect(page.getByTestId('usage-summary')).toHaveText('1 Jun 2025 – 30 Jun 2025 (UTC) · 3 projects');
  // By name first, as a person reads (the formula's "=" sorts before letters).
  expect(await projectNames(page)).toEqual([FORMULA, 'Atlas', 'Beacon']);

  // Null costs are unknown, never 0; a known sum that leaves runs out says so.
  const atlas = report(page).getByRole('row', { name: /^Atlas/ });
  await expect(atlas).toContainText('$1.25+ 1 run unknown');
  await expect(
    report(page)
      .getByRole('row', { name: /HYPERLINK/ })
      .getByRole('cell')
      .last(),
  ).toHaveText('—unknown');
  const totals = page.getByTestId('usage-totals');
  await expect(totals).toHaveText(/^Total\s*4\s*4,510\s*1,205\s*\$1\.75\+ 2 runs unknown$/);
  await expect(page.getByTestId('usage-unknown-costs')).toContainText('2 of 4 runs have no known cost');

  // Sorting: by cost, highest first, unknown last either way; the sort survives a reload.
  const cost = report(page).getByRole('columnheader', { name: 'Cost (USD)' });
  await cost.getByRole('button').click();
  await expect(cost).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL(/sort=cost&dir=desc/);
  expect(await projectNames(page)).toEqual(['Atlas', 'Beacon', FORMULA]);
  await cost.getByRole('button').click();
  await expect(cost).toHaveAttribute('aria-sort', 'ascending');
  expect(await projectNames(page)).toEqual(['Beacon', 'Atlas', FORMULA]);
  await report(page).getByRole('columnheader', { name: 'Input tokens' }).getByRole('button').click();
  expect(await projectNames(page)).toEqual(['Beacon', 'Atlas', FORMULA]);
  await report(page).getByRole('columnheader', { name: 'Project' }).getByRole('button').click();
  await report(page).getByRole('columnheader', { name: 'Project' }).getByRole('button').click();
  await expect(report(page).getByRole('columnheader', { name: 'Project' })).toHaveAttribute('aria-sort', 'descending');
  expect(await projectNames(page)).toEqual(['Beacon', 'Atlas', FORMULA]);
  await page.reload();
  await expect(report(page).getByRole('columnheader', { name: 'Project' })).toHaveAttribute('aria-sort', 'descending');
  expect(await projectNames(page)).toEqual(['Beacon', 'Atlas', FORMULA]);
  await expect(page.getByLabel('From', { exact: true })).toHaveValue('2025-06-01');
  await expect(page.getByLabel('To', { exact: true })).toHaveValue('2025-06-30');

  // The chart follows the table: one pair of bars per project, described for screen readers.
  const chart = page.getByRole('img', { name: /Cost and tokens per project/ });
  await expect(chart).toBeVisible();
  await expect(page.getByTestId('usage-chart-bar')).toHaveCount(3);
  await expect(chart).toHaveAccessibleName(/Beacon: \$0\.50, 3,900 tokens; Atlas: \$1\.25 \+ unknown, 1,800 tokens/);
  await expect(chart).toHaveAccessibleName(/HYPERLINK.*: cost unknown, 15 tokens/);
});

test('the folder filter covers the subtree and is kept in the URL', async ({ page }) => {
  await open(page, JUNE);
  const folder = selectBox(page, 'Folder');
  await pick(page, 'Folder', 'Research / Lab');
  await expect(page).toHaveURL(new RegExp(`folderId=${ids.lab}`));
  await expect.poll(() => projectNames(page)).toEqual(['Atlas']);
  await expect(page.getByTestId('usage-totals')).toContainText('$1.25');
  await pick(page, 'Folder', 'Research');
  await expect.poll(() => projectNames(page)).toEqual(['Atlas', 'Beacon']);
  await expect(page.getByTestId('usage-totals')).toHaveText(/^Total\s*3\s*4,500\s*1,200\s*\$1\.75\+ 1 run unknown$/);
  await page.reload();
  await expect(folder).toHaveValue('Research');
  await expect.poll(() => projectNames(page)).toEqual(['Atlas', 'Beacon']);
  await pick(page, 'Folder', 'All folders');
  await expect.poll(() => projectNames(page)).toEqual([FORMULA, 'Atlas', 'Beacon']);
  expect(page.url()).not.toContain('folderId');
});

test('presets: this month, last 30 days and all time', async ({ page }) => {
  await open(page, `/o/${org}/usage`);
  const now = new Date();
  const today = dayOf(now.getTime());
  const lastOfMonth = dayOf(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - DAY_MS);
  const presets = page.getByRole('group', { name: 'Window presets' });
  await expect(presets.getByRole('button', { name: 'All time' })).toHaveAttribute('aria-pressed', 'true');
  expect(await projectNames(page)).toEqual([FORMULA, 'Atlas', 'Beacon']);

  await presets.getByRole('button', { name: 'This month' }).click();
  await expect(page).toHaveURL(new RegExp(`from=${today.slice(0, 7)}-01&to=${lastOfMonth}`));
  await expect(presets.getByRole('button', { name: 'This month' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => projectNames(page)).toEqual(['Atlas']);
  await expect(page.getByTestId('usage-totals')).toHaveText(/^Total\s*1\s*40\s*2\s*\$0\.02$/);
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(`${today.slice(0, 7)}-01`);

  await presets.getByRole('button', { name: 'Last 30 days' }).click();
  await expect(page).toHaveURL(new RegExp(`from=${dayOf(now.getTime() - 29 * DAY_MS)}&to=${today}`));
  await expect(presets.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => projectNames(page)).toEqual(['Atlas']);

  await presets.getByRole('button', { name: 'All time' }).click();
  await expect.poll(() => projectNames(page)).toEqual([FORMULA, 'Atlas', 'Beacon']);
  expect(new URL(page.url()).search).toBe('');
  // Back in history is the previous window again.
  await page.goBack();
  await expect(presets.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute('aria-pressed', 'true');
});

test('the breakdown by fact kind and by capability', async ({ page }) => {
  await open(page, JUNE);
  const byKind = page.getByRole('table', { name: 'By fact kind' });
  await expect(byKind.getByRole('row', { name: /^Model/ })).toHaveText(/Model\s*2\s*5,100 tokens\s*\$1\.50/);
  await expect(byKind.getByRole('row', { name: /^Tool/ })).toHaveText(/Tool\s*1\s*3 calls\s*—unknown/);
  await expect(byKind.getByRole('row', { name: /^External capability/ })).toHaveText(
    /External capability\s*2\s*7 calls\s*\$0\.25/,
  );
  const byCapability = page.getByRole('table', { name: 'By external capability' });
  const vectorDb = byCapability.getByRole('row', { name: /vector-db/ });
  await expect(vectorDb).toHaveText(/no connection vector-db\s*1\s*5\s*—unknown/);
  await expect(byCapability.getByRole('row', { name: /web-search/ })).toHaveText(
    /^@Web Search web-search\s*1\s*2\s*\$0\.25$/,
  );
  // The breakdown follows the folder filter too.
  await pick(page, 'Folder', 'Research / Lab');
  await expect(byKind.getByRole('row', { name: /^Model/ })).toHaveText(/Model\s*1\s*1,200 tokens\s*\$1\.00/);
});

test('the CSVs are the server’s: the figures on screen, by project name, safe to open in a spreadsheet', async ({
  page,
}) => {
  await open(page, `${JUNE}&sort=cost&dir=desc`);
  expect(await projectNames(page)).toEqual(['Atlas', 'Beacon', FORMULA]);
  const link = page.getByRole('link', { name: 'Download CSV', exact: true });
  await expect(link).toHaveAttribute('href', new RegExp(`/api/org/${org}/usage\\?.*format=csv`));
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe('usage-report.csv');
  const csv = readFileSync((await download.path())!, 'utf8');
  // The report's order (by project name), not the screen's sort: the file is the API's answer.
  expect(csv.split('\r\n')).toEqual([
    '"projectId","projectName","folderId","runCount","runsWithCost","runsWithoutCost",' +
      '"inputTokens","outputTokens","costUsd"',
    // The formula is neutralized by a leading quote; every text is quoted (RFC 4180), quotes doubled.
    `"${ids.formula}","'=HYPERLINK(""http://evil.example"",""click"")",,1,0,1,10,5,`,
    `"${ids.atlas}","Atlas","${ids.lab}",2,1,1,1500,300,1.25`,
    `"${ids.beacon}","Beacon","${ids.research}",1,1,0,3000,900,0.5`,
    '',
  ]);

  const [breakdown] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download breakdown CSV' }).click(),
  ]);
  expect(breakdown.suggestedFilename()).toBe('usage-breakdown.csv');
  expect(readFileSync((await breakdown.path())!, 'utf8').split('\r\n')).toEqual([
    '"section","kind","capabilityId","label","factCount","quantity","costUsd"',
    '"factKind","model",,,2,5100,1.5',
    '"factKind","tool",,,1,3,',
    '"factKind","capability",,,2,7,0.25',
    '"capability","capability","vector-db",,1,5,',
    `"capability","capability","web-search","'@Web Search",1,2,0.25`,
    '',
  ]);
});

test('pending and errors: an update shows it is loading; a refused window shows the server message', async ({
  page,
}) => {
  await open(page, JUNE);
  // Hold the next report request so its pending state can be seen.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const isReport = (url: URL) => url.pathname.endsWith('/usage');
  await page.route(isReport, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel('To', { exact: true }).fill('2025-06-10');
  await page.getByRole('button', { name: 'Apply range' }).click();
  await expect(page.getByTestId('usage-summary')).toHaveText('Updating the report…');
  await expect(page.getByRole('button', { name: 'Apply range' })).toHaveAttribute('data-loading', 'true');
  await expect(page.getByRole('link', { name: 'Download CSV', exact: true })).toBeDisabled();
  release();
  await expect(page.getByTestId('usage-summary')).toHaveText('1 Jun 2025 – 10 Jun 2025 (UTC) · 1 project');
  await page.unroute(isReport);

  // From after To is refused before the click, with the reason.
  await page.getByLabel('From', { exact: true }).fill('2025-07-10');
  await page.getByLabel('To', { exact: true }).fill('2025-07-01');
  await expect(page.getByRole('button', { name: 'Apply range' })).toBeDisabled();
  await expect(page.getByText('Before From: pick a later day')).toBeVisible();
  await expect(page.getByTestId('usage-summary')).toHaveText('1 Jun 2025 – 10 Jun 2025 (UTC) · 1 project');

  // The same window in a hand-edited link: the server's 400 message, for the report and the breakdown.
  await page.goto(`/o/${org}/usage?from=2025-07-10&to=2025-07-01`);
  const alert = page.getByRole('alert').filter({ hasText: 'Could not load the usage report' });
  await expect(alert).toContainText('`from` must not be later than `to`');
  await expect(page.getByRole('alert').filter({ hasText: 'Could not load the breakdown' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Usage per project' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Download CSV', exact: true })).toBeDisabled();

  // A hand-edited link: the server's validation message, not a blank page.
  await page.goto(`/o/${org}/usage?from=yesterday`);
  await expect(page.getByRole('alert').filter({ hasText: 'Could not load the usage report' })).toContainText(/from/);
});

for (const width of [1280, 390]) {
  test(`accessible in light and dark, captured at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await open(page, `${JUNE}&sort=cost&dir=desc`);
    await expect(page.getByRole('img', { name: /Cost and tokens per project/ })).toBeVisible();
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await expectAccessible(page);
    await screenshot(page, 'usage-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await screenshot(page, 'usage');
    // Nothing wider than the screen but the tables' own scrolling regions.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}
