import { Text, VisuallyHidden } from '@mantine/core';
import type { CSSProperties } from 'react';
import { exactUsd } from '../../../lib/format';
import { formatCount, formatUsd } from './report-model';

/**
 * For the scrolling region around a table of costs: the "unknown" read to screen readers is
 * absolutely positioned, and would widen the whole page (390 px) unless the region contains it.
 */
export const CONTAIN: CSSProperties = { position: 'relative' };

/**
 * A cost as the contract means it: null is unknown (shown `—`, read "unknown"), never 0; a known sum
 * that leaves some runs out says how many.
 */
export function Cost({ value, runsWithoutCost = 0 }: { value: number | null; runsWithoutCost?: number }) {
  if (value === null)
    return (
      <Text span size="sm" c="dimmed" title="Unknown: no run here has a known cost">
        <span aria-hidden="true">—</span>
        <VisuallyHidden>unknown</VisuallyHidden>
      </Text>
    );
  return (
    <>
      <span title={exactUsd(value)}>{formatUsd(value)}</span>
      {runsWithoutCost > 0 && (
        <Text span size="xs" c="dimmed" display="block">
          + {formatCount(runsWithoutCost)} {runsWithoutCost === 1 ? 'run' : 'runs'} unknown
        </Text>
      )}
    </>
  );
}
