import { describe, expect, it } from 'vitest';
import { toCsv } from '../../../lib/csv';
import { breakdownCsvRecords, csvFileName, type ProjectRow, reportCsvRecords, sortRows } from './report-model';

const row = (projectName: string, runCount: number, costUsd: number | null): ProjectRow => ({
  projectId: `p-${projectName}`,
  projectName,
  folderId: null,
  runCount,
  runsWithCost: costUsd === null ? 0 : runCount,
  runsWithoutCost: costUsd === null ? runCount : 0,
  inputTokens: runCount * 100,
  outputTokens: runCount * 10,
  costUsd,
});

const rows = [row('Billing', 3, 1.5), row('Alpha', 1, null), row('Website', 2, 0.25), row('Zeta', 2, null)];
const names = (list: ProjectRow[]) => list.map((r) => r.projectName);

describe('sortRows', () => {
  it('sorts by name or by a figure, ties by name', () => {
    expect(names(sortRows(rows, { key: 'project', dir: 'asc' }))).toEqual(['Alpha', 'Billing', 'Website', 'Zeta']);
    expect(names(sortRows(rows, { key: 'project', dir: 'desc' }))).toEqual(['Zeta', 'Website', 'Billing', 'Alpha']);
    expect(names(sortRows(rows, { key: 'runs', dir: 'desc' }))).toEqual(['Billing', 'Website', 'Zeta', 'Alpha']);
    expect(names(sortRows(rows, { key: 'runs', dir: 'asc' }))).toEqual(['Alpha', 'Website', 'Zeta', 'Billing']);
  });

  it('puts unknown costs last in both directions, never as 0', () => {
    expect(names(sortRows(rows, { key: 'cost', dir: 'desc' }))).toEqual(['Billing', 'Website', 'Alpha', 'Zeta']);
    expect(names(sortRows(rows, { key: 'cost', dir: 'asc' }))).toEqual(['Website', 'Billing', 'Alpha', 'Zeta']);
  });

  it('leaves its input alone', () => {
    const copy = [...rows];
    sortRows(rows, { key: 'cost', dir: 'desc' });
    expect(rows).toEqual(copy);
  });
});

describe('the CSV of the screen', () => {
  it('writes the rows in screen order, then totals; an unknown cost is an empty cell', () => {
    const totals = {
      runCount: 8,
      runsWithCost: 5,
      runsWithoutCost: 3,
      inputTokens: 800,
      outputTokens: 80,
      costUsd: 0.1 + 0.2,
    };
    const csv = toCsv(reportCsvRecords([row('=1+2', 1, null), row('Billing', 3, 1.5)], totals));
    expect(csv.split('\r\n')).toEqual([
      'Project,Project ID,Runs,Runs with cost,Runs without cost,Input tokens,Output tokens,Cost (USD)',
      "'=1+2,p-=1+2,1,0,1,100,10,",
      'Billing,p-Billing,3,3,0,300,30,1.5',
      'Total,,8,5,3,800,80,0.3',
      '',
    ]);
  });

  it('writes both breakdown tables', () => {
    const records = breakdownCsvRecords({
      from: null,
      to: null,
      byFactKind: [
        { kind: 'model', factCount: 2, quantity: 1500, costUsd: 0.5 },
        { kind: 'capability', factCount: 1, quantity: 4, costUsd: null },
      ],
      byCapability: [{ capabilityId: 'search', label: '@Search', factCount: 1, quantity: 4, costUsd: null }],
    });
    expect(toCsv(records).split('\r\n').slice(1, 4)).toEqual([
      'Fact kind,model,,2,1500,tokens,0.5',
      'Fact kind,capability,,1,4,calls,',
      "Capability,search,'@Search,1,4,calls,",
    ]);
  });

  it('names the file after the organization and the window', () => {
    expect(csvFileName('usage', 'acme', '2026-11-01', '2026-11-30')).toBe('usage-acme-2026-11-01-to-2026-11-30.csv');
    expect(csvFileName('usage-breakdown', 'acme', null, null)).toBe('usage-breakdown-acme-all-time.csv');
    expect(csvFileName('usage', 'acme', '2026-11-01T00:00:00Z', null)).toBe(
      'usage-acme-2026-11-01T00_00_00Z-to-now.csv',
    );
  });
});
