import { useState } from 'react';
import { errorMessage } from './api-client';

/** How one item of a bulk action went: done, or refused with the server's message. */
export interface BulkOutcome {
  key: string;
  label: string;
  ok: boolean;
  message?: string;
}

/** A bulk action's outcomes, under the sentence that names it ("Changed role to ADMIN"). */
export interface BulkReport {
  action: string;
  outcomes: BulkOutcome[];
}

/**
 * Runs `act` on each item in turn, one request per item, so every refusal is the server's own
 * decision on that item with what went before already applied (the last OWNER stays refused).
 */
export async function runEach<T>(
  items: readonly T[],
  identify: (item: T) => { key: string; label: string },
  act: (item: T) => Promise<unknown>,
  onProgress?: (done: number) => void,
): Promise<BulkOutcome[]> {
  const outcomes: BulkOutcome[] = [];
  for (const item of items) {
    const { key, label } = identify(item);
    try {
      await act(item);
      outcomes.push({ key, label, ok: true });
    } catch (error) {
      outcomes.push({ key, label, ok: false, message: errorMessage(error) });
    }
    onProgress?.(outcomes.length);
  }
  return outcomes;
}

/** A bulk action's state on a screen: how far it got while running, and the report once done. */
export function useBulkRun() {
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [report, setReport] = useState<BulkReport | null>(null);
  const run = async <T>(
    action: string,
    items: readonly T[],
    identify: (item: T) => { key: string; label: string },
    act: (item: T) => Promise<unknown>,
  ): Promise<BulkOutcome[]> => {
    setReport(null);
    setProgress({ done: 0, total: items.length });
    try {
      const outcomes = await runEach(items, identify, act, (done) => setProgress({ done, total: items.length }));
      setReport({ action, outcomes });
      return outcomes;
    } finally {
      setProgress(null);
    }
  };
  return { progress, report, run, dismiss: () => setReport(null) };
}
