import { describe, expect, it } from 'vitest';
import {
  apiQuery,
  breakdownQuery,
  describeWindow,
  isDay,
  matchPreset,
  nextSort,
  presetRange,
  readFilter,
  readSort,
  withFilter,
  withSort,
} from './usage-filter';

const today = new Date('2026-11-23T18:30:00Z');

describe('the filter in the URL', () => {
  it('reads from, to, folderId and memberId; empty values are no filter', () => {
    expect(readFilter(new URLSearchParams('from=2026-11-01&to=2026-11-30&folderId=f1&memberId=u1'))).toEqual({
      from: '2026-11-01',
      to: '2026-11-30',
      folderId: 'f1',
      memberId: 'u1',
    });
    expect(readFilter(new URLSearchParams('from=&folderId='))).toEqual({
      from: null,
      to: null,
      folderId: null,
      memberId: null,
    });
  });

  it('asks the report for one member, and the breakdown never', () => {
    const query = apiQuery({ from: '2026-11-01', to: '2026-11-30', folderId: null, memberId: 'u1' });
    expect(query).toEqual({ from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z', memberId: 'u1' });
    expect(breakdownQuery(query)).toEqual({ from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z' });
  });

  it('writes the filter over the params and keeps the sort', () => {
    const next = withFilter(new URLSearchParams('sort=cost&dir=desc&from=2026-01-01'), {
      from: null,
      to: '2026-02-01',
      folderId: 'f2',
    });
    expect(Object.fromEntries(next)).toEqual({ sort: 'cost', dir: 'desc', to: '2026-02-01', folderId: 'f2' });
  });

  it('reads and writes the sort, leaving the default out of the URL', () => {
    expect(readSort(new URLSearchParams('sort=cost&dir=desc'))).toEqual({ key: 'cost', dir: 'desc' });
    expect(readSort(new URLSearchParams('sort=bogus&dir=desc'))).toEqual({ key: 'project', dir: 'asc' });
    expect(withSort(new URLSearchParams('sort=cost&dir=desc'), { key: 'project', dir: 'asc' }).toString()).toBe('');
    expect(nextSort({ key: 'project', dir: 'asc' }, 'cost')).toEqual({ key: 'cost', dir: 'desc' });
    expect(nextSort({ key: 'cost', dir: 'desc' }, 'cost')).toEqual({ key: 'cost', dir: 'asc' });
    expect(nextSort({ key: 'cost', dir: 'desc' }, 'project')).toEqual({ key: 'project', dir: 'asc' });
  });
});

describe('the API window', () => {
  it('turns included UTC days into [from, to): to is the start of the next day', () => {
    expect(apiQuery({ from: '2026-11-01', to: '2026-11-30', folderId: 'f' })).toEqual({
      from: '2026-11-01T00:00:00Z',
      to: '2026-12-01T00:00:00Z',
      folderId: 'f',
    });
    expect(apiQuery({ from: null, to: '2026-12-31', folderId: null })).toEqual({ to: '2027-01-01T00:00:00Z' });
    expect(apiQuery({ from: null, to: null, folderId: null })).toEqual({});
  });

  it('passes what is not a day to the server as it is, which answers with its 400', () => {
    expect(apiQuery({ from: 'yesterday', to: '2026-02-30', folderId: null })).toEqual({
      from: 'yesterday',
      to: '2026-02-30',
    });
    expect(isDay('2026-02-28')).toBe(true);
    expect(isDay('2026-02-30')).toBe(false);
    expect(isDay('2026-2-3')).toBe(false);
  });
});

describe('presets', () => {
  it('this month is the first to the last day of the month, in UTC', () => {
    expect(presetRange('this-month', today)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(presetRange('this-month', new Date('2024-02-10T00:00:00Z'))).toEqual({
      from: '2024-02-01',
      to: '2024-02-29',
    });
    expect(presetRange('this-month', new Date('2026-12-31T23:59:59Z'))).toEqual({
      from: '2026-12-01',
      to: '2026-12-31',
    });
  });

  it('last 30 days ends today, included', () => {
    expect(presetRange('last-30-days', today)).toEqual({ from: '2026-10-25', to: '2026-11-23' });
    expect(presetRange('all-time', today)).toEqual({ from: null, to: null });
  });

  it('recognizes a preset in the URL, and a custom range as none', () => {
    expect(matchPreset({ from: '2026-11-01', to: '2026-11-30', folderId: 'x' }, today)).toBe('this-month');
    expect(matchPreset({ from: null, to: null, folderId: null }, today)).toBe('all-time');
    expect(matchPreset({ from: '2026-11-02', to: '2026-11-30', folderId: null }, today)).toBeNull();
  });

  it('describes the window in words', () => {
    expect(describeWindow({ from: '2026-11-01', to: '2026-11-30', folderId: null })).toBe('1 Nov 2026 – 30 Nov 2026');
    expect(describeWindow({ from: null, to: null, folderId: null })).toBe('All time');
    expect(describeWindow({ from: '2026-11-01', to: null, folderId: null })).toBe('From 1 Nov 2026');
  });
});
