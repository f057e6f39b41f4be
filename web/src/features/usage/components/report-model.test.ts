import { describe, expect, it } from 'vitest';
import { type ProjectRow, sortRows } from './report-model';

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
