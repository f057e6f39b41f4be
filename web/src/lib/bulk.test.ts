import { describe, expect, it } from 'vitest';
import { runEach } from './bulk';

describe('runEach', () => {
  it('acts on each item in turn, one after the other, and reports each refusal with its message', async () => {
    const order: string[] = [];
    const progress: number[] = [];
    const outcomes = await runEach(
      ['a', 'b', 'c'],
      (item) => ({ key: item, label: item.toUpperCase() }),
      async (item) => {
        order.push(`start ${item}`);
        await Promise.resolve();
        order.push(`end ${item}`);
        if (item === 'b') throw { error: { code: 'last_owner', message: 'B is the last OWNER.' } };
      },
      (done) => progress.push(done),
    );
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(progress).toEqual([1, 2, 3]);
    expect(outcomes).toEqual([
      { key: 'a', label: 'A', ok: true },
      { key: 'b', label: 'B', ok: false, message: 'B is the last OWNER.' },
      { key: 'c', label: 'C', ok: true },
    ]);
  });
});
