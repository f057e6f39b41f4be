import { describe, expect, it } from 'vitest';
import { atRisk, type Budget, describeStatus, parseThresholds } from './budget-model';

const budget = (over: Partial<Budget['status']> & { metric?: Budget['metric']; amount?: number }): Budget => ({
  id: `b-${Math.random()}`,
  name: 'B',
  scope: { type: 'organization', id: null },
  perMember: false,
  metric: over.metric ?? 'costUsd',
  amount: over.amount ?? 500,
  period: 'month',
  thresholds: [50, 80, 100],
  enforcement: 'alert',
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
  status: {
    periodStart: '2026-11-01T00:00:00Z',
    periodEnd: '2026-12-01T00:00:00Z',
    spent: over.spent ?? 0,
    percent: over.percent ?? 0,
    state: over.state ?? 'ok',
    runsWithoutCost: 0,
  },
});

describe('budgets on screen', () => {
  it('say their status in words, in the metric’s unit', () => {
    expect(describeStatus(budget({ spent: 412.5, percent: 82.5, state: 'warning' }))).toBe(
      '$412.50 of $500.00 · 82 % · warning',
    );
    expect(
      describeStatus(budget({ metric: 'tokens', amount: 1e6, spent: 1.2e6, percent: 120, state: 'exceeded' })),
    ).toBe('1,200,000 tokens of 1,000,000 tokens · 120 % · exceeded');
  });

  it('list those at risk, the most spent first', () => {
    const a = budget({ percent: 85, state: 'warning' });
    const b = budget({ percent: 120, state: 'exceeded' });
    expect(atRisk([budget({ percent: 10 }), a, b])).toEqual([b, a]);
  });

  it('read thresholds as whole numbers, leaving order and range to the server', () => {
    expect(parseThresholds('50, 80,100')).toEqual([50, 80, 100]);
    expect(parseThresholds('100, 50')).toEqual([100, 50]);
    expect(parseThresholds('50, eighty')).toBeUndefined();
    expect(parseThresholds(' ')).toBeUndefined();
  });
});
