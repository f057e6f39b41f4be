import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { type AuditScope, CONSOLE_ACTOR, currentAuditScope, withAuditScope } from '../../src/audit/scope.js';

// The audit scope (src/audit/scope.ts) follows each call through its awaits, keeps concurrent
// calls apart, and is gone once the call is over, however calls overlap.
const scope = (action: string): AuditScope => ({ actor: CONSOLE_ACTOR, at: new Date(0), action, requestId: action });

/** Resolves when `release` is called, after one more turn of the event loop. */
function gate() {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { release, passed: () => opened.then(() => nextTurn()) };
}

describe('withAuditScope', () => {
  it('is seen across awaits inside the call, and not after it', async () => {
    expect(currentAuditScope()).toBeUndefined();
    const seen = await withAuditScope(scope('one'), async () => {
      await nextTurn();
      return currentAuditScope()?.action;
    });
    expect(seen).toBe('one');
    expect(currentAuditScope()).toBeUndefined();
    await nextTurn();
    expect(currentAuditScope()).toBeUndefined();
  });

  it('keeps overlapping calls apart: one ending leaves the other its scope', async () => {
    const firstDone = gate();
    const secondDone = gate();
    const first = withAuditScope(scope('first'), async () => {
      await firstDone.passed();
      return currentAuditScope()?.action;
    });
    const second = withAuditScope(scope('second'), async () => {
      await secondDone.passed();
      const before = currentAuditScope()?.action;
      await nextTurn();
      return [before, currentAuditScope()?.action];
    });
    firstDone.release();
    expect(await first).toBe('first');
    // The first call is over while the second is still waiting: the second keeps its scope.
    secondDone.release();
    expect(await second).toEqual(['second', 'second']);
    expect(currentAuditScope()).toBeUndefined();
  });

  it('nests, and a call that throws leaves no scope behind', async () => {
    const inner = await withAuditScope(scope('outer'), async () => {
      const nested = await withAuditScope(scope('inner'), async () => currentAuditScope()?.action);
      return [nested, currentAuditScope()?.action];
    });
    expect(inner).toEqual(['inner', 'outer']);
    await expect(
      withAuditScope(scope('failing'), async () => {
        await nextTurn();
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(currentAuditScope()).toBeUndefined();
    // A scope opened after the storage was disabled works as the first one did.
    expect(await withAuditScope(scope('again'), async () => currentAuditScope()?.action)).toBe('again');
  });
});
