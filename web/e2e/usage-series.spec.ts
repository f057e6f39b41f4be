/**
 * The Usage page's series against the real server. The spec brings its own organization: projects
 * Atlas and Beacon, runs in June 2025 on three days with two models, one of them without a cost,
 * started by the owner, by the member Mia or by nobody; and a run of Mia's this month, for her
 * own usage page.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { apiAs, hub } from './support/hub';
import { pick, selectBox } from './support/select';

const OWNER = 'sid-series';
const MEMBER = 'mia-series';
const org = `series-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const JUNE = `/o/${org}/usage?from=2025-06-01&to=2025-06-30`;

const run = (
  projectId: string,
  sessionId: string,
  at: string,
  model: string,
  costUsd: number | null,
  by: string | null = null,
) => ({
  ...(by ? { initiatedBy: { type: 'member', imOpenId: by } } : {}),
  projectId,
  sessionId: `${org}-${sessionId}`,
  provider: 'anthropic',
  roleId: 'coder',
  model,
  at,
  inputTokens: 100,
  outputTokens: 10,
  costUsd,
});

test.beforeAll(async () => {
  hub(['org', 'create', org, '--name', 'Series Co', '--owner', OWNER, '--owner-name', 'Sid Series']);
  const owner = await apiAs(OWNER);
  const api = `/api/org/${org}`;
  const atlas = await owner.call('POST', `${api}/projects`, { name: 'Atlas' });
  const beacon = await owner.call('POST', `${api}/projects`, { name: 'Beacon' });
  await owner.call('POST', `${api}/members`, { imOpenId: MEMBER, displayName: 'Mia Series', role: 'MEMBER' });
  const now = new Date();
  const thisMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, 0, 30)).toISOString();
  const runs = [
    run(atlas.id, 'atlas-1', '2025-06-02T10:00:00Z', 'model-fast', 1.5, OWNER),
    run(atlas.id, 'atlas-1', '2025-06-02T11:00:00Z', 'model-fast', 0.5, OWNER),
    run(beacon.id, 'beacon-1', '2025-06-02T12:00:00Z', 'model-deep', 3, MEMBER),
    run(beacon.id, 'beacon-1', '2025-06-10T12:00:00Z', 'model-deep', null, MEMBER),
    run(atlas.id, 'atlas-2', '2025-06-30T23:00:00Z', 'model-deep', 0.25),
    run(beacon.id, 'beacon-now', thisMonth, 'model-deep', 0.75, MEMBER),
  ];
  const file = join(tmpdir(), `${org}-runs.jsonl`);
  writeFileSync(file, `${runs.map((r) => JSON.stringify(r)).join('\n')}\n`);
  hub(['usage', 'ingest', file, '--org', org]);
});

const chart = (page: Page) => page.getByRole('img', { name: /per (day|week|month), by/ });
const status = (page: Page) => page.getByTestId('usage-series-status');

async function open(page: Page, path: string) {
  await signIn(page, OWNER);
  await page.goto(path);
  // A cold server under load may take a while to answer the first page.
  await expect(page.getByRole('heading', { level: 2, name: 'Over time' })).toBeVisible({ timeout: 60_000 });
  await expect(status(page)).toHaveText('');
}

test('a stacked chart per day, then per week by model, the pickers kept in the URL', async ({ page }) => {
  await open(page, JUNE);
  await expect(chart(page)).toHaveAccessibleName(/^Cost \(USD\) per day, by project, 1 Jun 2025 – 30 Jun 2025 \(UTC\)/);
  await expect(chart(page)).toHaveAccessibleName(
    /Total \$5\.25 over 30 buckets; highest \$5\.00 in the bucket of 2 Jun 2025/,
  );
  await expect(page.getByTestId('usage-series-bucket')).toHaveCount(30);
  const legend = page.getByRole('list', { name: 'Legend' });
  await expect(legend.getByRole('listitem')).toHaveText(['Beacon · $3.00', 'Atlas · $2.25']);
  // An unknown cost adds nothing to the bars, and the page says so.
  await expect(page.getByText('Runs with an unknown cost add nothing to the bars')).toBeVisible();

  await pick(page, 'Bucket', 'Week (from Monday)');
  await expect(page).toHaveURL(/bucket=week/);
  await expect(page.getByTestId('usage-series-bucket')).toHaveCount(6);
  await pick(page, 'Group by', 'Model');
  await pick(page, 'Measure', 'Runs');
  await expect(page).toHaveURL(/groupBy=model/);
  await expect(page).toHaveURL(/measure=runs/);
  await expect(chart(page)).toHaveAccessibleName(/^Runs per week, by model/);
  await expect(legend.getByRole('listitem')).toHaveText(['model-deep · 3', 'model-fast · 2']);

  await page.reload();
  await expect(selectBox(page, 'Bucket')).toHaveValue('Week (from Monday)');
  await expect(selectBox(page, 'Group by')).toHaveValue('Model');
  await expect(selectBox(page, 'Measure')).toHaveValue('Runs');
  await expect(page.getByTestId('usage-series-bucket')).toHaveCount(6);
});

test('the table behind the chart, and the series CSV from the server', async ({ page }) => {
  await open(page, `${JUNE}&bucket=week`);
  const table = page.getByRole('table', { name: 'Usage over time' });
  await expect(table).toBeHidden();
  await page.getByText('The series as a table').click();
  await expect(table).toBeVisible();
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(7);
  // Sunday 1 June is in the week of Monday 26 May, which has no runs.
  await expect(rows.nth(0)).toHaveText(/^26 May 2025\s*No runs$/);
  await expect(rows.nth(1)).toHaveText(/^2 Jun 2025\s*Atlas\s*2\s*200\s*20\s*\$2\.00$/);
  await expect(rows.nth(2)).toHaveText(/^2 Jun 2025\s*Beacon\s*1\s*100\s*10\s*\$3\.00$/);
  await expect(rows.nth(3)).toHaveText(/^9 Jun 2025\s*Beacon\s*1\s*100\s*10\s*—\s*unknown$/);
  await expect(rows.nth(6)).toHaveText(/^30 Jun 2025\s*Atlas\s*1\s*100\s*10\s*\$0\.25$/);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download series CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('usage-series.csv');
  const lines = readFileSync((await download.path())!, 'utf8').split('\r\n');
  expect(lines[0]).toBe('"bucketStart","key","label","runCount","inputTokens","outputTokens","costUsd"');
  expect(lines.slice(1).filter((l) => l.includes('"Beacon"'))).toEqual([
    expect.stringMatching(/^"2025-06-02T00:00:00\.000Z","[^"]+","Beacon",1,100,10,3$/),
    expect.stringMatching(/^"2025-06-09T00:00:00\.000Z","[^"]+","Beacon",1,100,10,$/),
  ]);
  expect(lines).toContain('"2025-06-16T00:00:00.000Z",,,0,0,0,');
});

test('pending, refused and open windows', async ({ page }) => {
  await open(page, JUNE);
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const isSeries = (url: URL) => url.pathname.endsWith('/usage/series');
  await page.route(isSeries, async (route) => {
    await held;
    await route.continue();
  });
  await pick(page, 'Bucket', 'Month');
  await expect(status(page)).toHaveText(/Updating the series…|Loading the series…/);
  await expect(page.getByRole('link', { name: 'Download series CSV' })).toBeDisabled();
  release();
  await expect(status(page)).toHaveText('');
  await expect(page.getByTestId('usage-series-bucket')).toHaveCount(1);
  await page.unroute(isSeries);

  // More than 400 daily buckets: the server's refusal, naming the limit.
  await page.goto(`/o/${org}/usage?from=2020-01-01&to=2025-06-30`);
  const alert = page.getByRole('alert').filter({ hasText: 'Could not load the series' });
  await expect(alert).toContainText('more than 400 day buckets');
  await expect(page.getByRole('link', { name: 'Download series CSV' })).toBeDisabled();

  // All time has no ends to bucket.
  await page.goto(`/o/${org}/usage`);
  await expect(status(page)).toHaveText(/Pick a window with a start and an end/);
  await expect(chart(page)).toHaveCount(0);
});

for (const width of [1280, 390]) {
  test(`the series is accessible in light and dark at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await open(page, `${JUNE}&groupBy=model`);
    await expect(chart(page)).toBeVisible();
    await page.getByText('The series as a table').click();
    await expect(page.getByRole('table', { name: 'Usage over time' })).toBeVisible();
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshot(page, 'usage-series');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}

test('by member: each member’s runs, and the unattributed ones in a band of their own', async ({ page }) => {
  await open(page, `${JUNE}&groupBy=member`);
  await expect(chart(page)).toHaveAccessibleName(/^Cost \(USD\) per day, by member/);
  const legend = page.getByRole('list', { name: 'Legend' });
  await expect(legend.getByRole('listitem')).toHaveText([
    'Mia Series · $3.00',
    'Sid Series · $2.00',
    'Unattributed · $0.25',
  ]);
  await pick(page, 'Group by', 'Team');
  await expect(page).toHaveURL(/groupBy=team/);
  // Nobody here is in a team: only the unattributed runs have a row, and the page says teams overlap.
  await expect(legend.getByRole('listitem')).toHaveText(['Unattributed · $0.25']);
  await expect(page.getByTestId('usage-series-overlapping')).toBeVisible();
});

test('by member, a member’s row opens the page filtered to that member', async ({ page }) => {
  await open(page, `${JUNE}&groupBy=member`);
  await page.getByTestId('usage-series-details').locator('summary').click();
  const table = page.getByTestId('usage-series-table');
  // Unattributed runs have no member to open.
  await expect(table.getByRole('link', { name: 'Unattributed' })).toHaveCount(0);
  await table.getByRole('link', { name: 'Mia Series' }).first().click();
  await expect(page).toHaveURL(/memberId=/);
  await expect(page).not.toHaveURL(/groupBy=/);
  await expect(page.getByTestId('usage-member-filter')).toContainText('Only Mia Series');
  const rows = page.getByTestId('usage-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveText(/^Beacon\s*2/);
  await expect(page.getByRole('list', { name: 'Legend' }).getByRole('listitem')).toHaveText(['Beacon · $3.00']);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Show everyone' }).click();
  await expect(page).not.toHaveURL(/memberId=/);
  await expect(page.getByTestId('usage-row')).toHaveCount(2);
});

test('by service account: members’ runs are one row', async ({ page }) => {
  await open(page, `${JUNE}&groupBy=serviceAccount`);
  await expect(chart(page)).toHaveAccessibleName(/^Cost \(USD\) per day, by service account/);
  await expect(page.getByRole('list', { name: 'Legend' }).getByRole('listitem')).toHaveText([
    'Not by a service account · $5.25',
  ]);
});

for (const width of [1280, 390]) {
  test(`a member’s own usage, from the navigation, accessible at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await signIn(page, MEMBER);
    await page.goto(`/o/${org}/my-projects`);
    if (width < 600) await page.getByRole('button', { name: /navigation/i }).click();
    await page.getByRole('link', { name: 'My usage' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'My usage' })).toBeVisible({ timeout: 60_000 });
    const rows = page.getByTestId('usage-row');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveText(/^Beacon\s*1\s*(100\s*10\s*)?\$0\.75$/);
    await expect(page.getByRole('img', { name: /^Your cost per day, by project/ })).toBeVisible();
    // The link just clicked is under the pointer and focused: axe judges the page at rest.
    await page.mouse.move(width - 1, 700);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await expectAccessible(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}
