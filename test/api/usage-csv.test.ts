import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, okBody } from '../support/assertions.js';
import { csvObjects, parseCsv } from '../support/csv.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { runLine, writeJsonl } from '../support/usage-runs.js';

/** The usage report, breakdown and series as RFC 4180 CSV: `Accept: text/csv` or `?format=csv`. */

let hub: TestHub;
let org: OrgFixture;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'usage-csv-'));
const ids: Record<string, string> = {};
const WINDOW = 'from=2026-11-01T00:00:00Z&to=2026-11-08T00:00:00Z';

/** Names a spreadsheet would run as formulas, and text that needs quoting. */
const PROJECT_NAMES = [
  '=HYPERLINK("http://x","y")',
  '+1',
  '-2',
  '@SUM(A1)',
  'Ünïcode, "quoted" ✓',
  'plain',
  // Fullwidth forms, which spreadsheets with East Asian input settings read as formula starts too.
  '＝HYPERLINK("http://x","y")',
  '＋1',
  '－2',
  '＠SUM(A1)',
];
const FORMULA_START = /^[=+\-@\t\r＝＋－＠]/;
const MODELS = ['\tcmd', '\r=1', 'two\nlines', 'a,b'];

const get = (pathAndQuery: string, headers: Record<string, string> = {}) =>
  hub.request('GET', `/api/org/${org.slug}${pathAndQuery}`, { cookie: org.cookies.admin, headers });
const asCsv = { accept: 'text/csv' };

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'acme');
  for (const name of PROJECT_NAMES) {
    ids[name] = (await okBody(org.call('owner', 'createProject', { body: { name } }), 201)).id;
  }
  await okBody(
    org.call('owner', 'putCapabilityConnection', {
      path: { capabilityId: 'web-search' },
      body: { label: '=cmd|"/c calc"!A1', kind: 'http', endpointUrl: 'https://search.example.com', headers: {} },
    }),
  );
  const facts = [
    { kind: 'model', quantity: 120, unit: 'tokens', costUsd: 0.25 },
    { kind: 'capability', capabilityId: 'web-search', quantity: 2, unit: 'calls', costUsd: null },
  ];
  const lines = PROJECT_NAMES.map((name, i) =>
    runLine(ids[name]!, `s-${i}`, `2026-11-0${1 + (i % 5)}T10:00:00Z`, {
      model: MODELS[i % MODELS.length],
      costUsd: i === 5 ? null : 0.125 * (i + 1),
      facts,
    }),
  );
  await hub.services.usage.ingest(org.id, writeJsonl(tmp, 'runs.jsonl', lines));
});
afterAll(async () => {
  await hub.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('usage as CSV', () => {
  it('answers the report as CSV for Accept: text/csv and for ?format=csv, with the JSON answer’s numbers', async () => {
    const json = await okBody(org.call('admin', 'getUsageReport', { query: { from: '2026-11-01T00:00:00Z' } }));
    for (const res of [
      await get('/usage?from=2026-11-01T00:00:00Z', asCsv),
      await get('/usage?from=2026-11-01T00:00:00Z&format=csv'),
    ]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="usage-report.csv"');
      expect(res.headers.get('vary')).toMatch(/Accept/);
      expect(res.text.endsWith('\r\n')).toBe(true);
      const rows = csvObjects(res.text);
      expect(parseCsv(res.text)[0]!.map((f) => f.text)).toEqual([
        'projectId',
        'projectName',
        'folderId',
        'runCount',
        'runsWithCost',
        'runsWithoutCost',
        'inputTokens',
        'outputTokens',
        'costUsd',
      ]);
      expect(rows).toEqual(
        json.projects.map((p) => ({
          projectId: p.projectId,
          projectName: FORMULA_START.test(p.projectName) ? `'${p.projectName}` : p.projectName,
          folderId: p.folderId ?? '',
          runCount: String(p.runCount),
          runsWithCost: String(p.runsWithCost),
          runsWithoutCost: String(p.runsWithoutCost),
          inputTokens: String(p.inputTokens),
          outputTokens: String(p.outputTokens),
          costUsd: p.costUsd === null ? '' : String(p.costUsd),
        })),
      );
    }
  });

  it('quotes text, doubles quotes, keeps UTF-8, and defuses every formula start', async () => {
    const res = await get('/usage?format=csv');
    const names = parseCsv(res.text)
      .slice(1)
      .map((row) => row[1]!);
    expect(names.every((f) => f.quoted)).toBe(true);
    expect(names.map((f) => f.text).sort()).toEqual(
      [
        '\'=HYPERLINK("http://x","y")',
        "'+1",
        "'-2",
        "'@SUM(A1)",
        'Ünïcode, "quoted" ✓',
        'plain',
        '\'＝HYPERLINK("http://x","y")',
        "'＋1",
        "'－2",
        "'＠SUM(A1)",
      ].sort(),
    );
    expect(res.text).toContain('"Ünïcode, ""quoted"" ✓"');
    // Numbers are bare; an unknown cost is an empty field, not a quoted empty text.
    const plain = parseCsv(res.text).find((row) => row[1]!.text === 'plain')!;
    expect(plain.slice(3).map((f) => [f.text, f.quoted])).toEqual([
      ['1', false],
      ['0', false],
      ['1', false],
      ['100', false],
      ['10', false],
      ['', false],
    ]);
  });

  it('answers the series as CSV: tab and CR defused, line breaks kept inside quotes, empty buckets', async () => {
    const query = `${WINDOW}&groupBy=model`;
    const json = await okBody(
      org.call('admin', 'getUsageSeries', {
        query: { from: '2026-11-01T00:00:00Z', to: '2026-11-08T00:00:00Z', groupBy: 'model' },
      }),
    );
    const res = await get(`/usage/series?${query}`, asCsv);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="usage-series.csv"');
    const rows = csvObjects(res.text);
    const expected = json.buckets.flatMap((b) =>
      b.groups.length === 0
        ? [
            {
              bucketStart: b.start,
              key: '',
              label: '',
              runCount: '0',
              inputTokens: '0',
              outputTokens: '0',
              costUsd: '',
            },
          ]
        : b.groups.map((g) => ({
            bucketStart: b.start,
            key: g.key !== null && FORMULA_START.test(g.key) ? `'${g.key}` : (g.key ?? ''),
            label: FORMULA_START.test(g.label) ? `'${g.label}` : g.label,
            runCount: String(g.runCount),
            inputTokens: String(g.inputTokens),
            outputTokens: String(g.outputTokens),
            costUsd: g.costUsd === null ? '' : String(g.costUsd),
          })),
    );
    expect(rows).toEqual(expected);
    expect(rows.map((r) => r.key)).toEqual(expect.arrayContaining(["'\tcmd", "'\r=1", 'two\nlines', 'a,b']));
    // Sunday 6 and Saturday 7 November had no runs: their buckets are there, empty.
    expect(rows.filter((r) => r.key === '').map((r) => r.bucketStart)).toEqual([
      '2026-11-06T00:00:00.000Z',
      '2026-11-07T00:00:00.000Z',
    ]);
  });

  it('answers the breakdown as CSV: the kinds, then the capabilities with their labels', async () => {
    const json = await okBody(org.call('admin', 'getUsageBreakdown', { query: {} }));
    const rows = csvObjects((await get('/usage/breakdown', asCsv)).text);
    // One run per project, each with one model fact and one capability fact of two calls.
    const runs = PROJECT_NAMES.length;
    expect(rows).toEqual([
      ...json.byFactKind.map((k) => ({
        section: 'factKind',
        kind: k.kind,
        capabilityId: '',
        label: '',
        factCount: String(k.factCount),
        quantity: String(k.quantity),
        costUsd: k.costUsd === null ? '' : String(k.costUsd),
      })),
      {
        section: 'capability',
        kind: 'capability',
        capabilityId: 'web-search',
        label: '\'=cmd|"/c calc"!A1',
        factCount: String(runs),
        quantity: String(2 * runs),
        costUsd: '',
      },
    ]);
    expect(rows[0]).toMatchObject({
      kind: 'model',
      factCount: String(runs),
      quantity: String(120 * runs),
      costUsd: String(0.25 * runs),
    });
  });

  it('answers JSON for ?format=json whatever Accept says, and for a client preferring JSON', async () => {
    const jsonByFormat = await get('/usage?format=json', asCsv);
    expect(jsonByFormat.headers.get('content-type')).toMatch(/^application\/json/);
    const preferring = await get('/usage', { accept: 'application/json, text/csv;q=0.5' });
    expect(preferring.headers.get('content-type')).toMatch(/^application\/json/);
    const any = await get('/usage', { accept: '*/*' });
    expect(any.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('answers errors as JSON envelopes, and refuses an unknown format', async () => {
    expectError(await get('/usage?format=xml'), 400, 'validation_failed');
    expectError(await get('/usage?folderId=nope', asCsv), 404, 'folder_not_found');
    expectError(
      await get(`/usage/series?from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z`, asCsv),
      400,
      'series_too_large',
    );
    const member = await hub.request('GET', `/api/org/${org.slug}/usage?format=csv`, { cookie: org.cookies.member });
    expectError(member, 403, 'org_admin_required');
  });

  it('streams a large answer in chunks that parse back to every row', async () => {
    const many = await seedOrg(hub, 'many');
    const project = (await okBody(many.call('owner', 'createProject', { body: { name: 'p' } }), 201)).id;
    const lines = Array.from({ length: 40 }, (_, i) =>
      Array.from({ length: 150 }, (_, d) =>
        runLine(project, `many-${i}`, new Date(Date.UTC(2026, 0, 1) + d * 86_400_000).toISOString(), {
          model: `model ${i} ${'x'.repeat(100)}`,
        }),
      ),
    ).flat();
    await hub.services.usage.ingest(many.id, writeJsonl(tmp, 'many.jsonl', lines));
    const res = await hub.request(
      'GET',
      `/api/org/many/usage/series?from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z&groupBy=model&format=csv`,
      { cookie: many.cookies.admin },
    );
    expect(res.status).toBe(200);
    // Larger than one chunk of the writer: sent in pieces, as chunked transfer.
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(csvObjects(res.text)).toHaveLength(40 * 150 + 1);
  });
});
