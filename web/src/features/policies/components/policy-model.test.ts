import { describe, expect, it } from 'vitest';
import { allowOf, describeAllow, describeScope, fieldsOf } from './policy-model';

describe('policy fields', () => {
  it('leave a list out for any, keep an empty list for none, and read back what they wrote', () => {
    const allow = allowOf({
      models: { mode: 'only', text: 'gpt-5, gpt-5, claude-opus-4-1' },
      providers: { mode: 'only', text: '' },
      capabilities: { mode: 'only', text: 'search: query, fetch\nfiles' },
    });
    expect(allow).toEqual({
      models: ['gpt-5', 'claude-opus-4-1'],
      providers: [],
      capabilities: [{ id: 'search', tools: ['query', 'fetch'] }, { id: 'files' }],
    });
    expect(allowOf(fieldsOf(allow))).toEqual(allow);
    expect(allowOf(fieldsOf({}))).toEqual({});
  });

  it('say an allow and a scope in words', () => {
    expect(describeAllow({ providers: [], capabilities: [{ id: 'search' }] })).toBe(
      'Models: any · Providers: none · Capabilities: search (all tools)',
    );
    expect(describeScope({ type: 'team', id: 't1' }, new Map([['t1', 'Platform']]))).toBe('Team "Platform"');
    expect(describeScope({ type: 'organization' }, new Map())).toBe('The organization');
  });
});
