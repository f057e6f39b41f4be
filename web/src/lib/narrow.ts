/**
 * Column priority on phones. Below Mantine's `sm` breakpoint (48em) a table keeps its key column
 * and its actions, and drops the columns spread with `WIDE_ONLY` (on the header and on each cell),
 * so what matters fits a 390 px screen without scrolling; what still does not fit scrolls, with the
 * cue `ScrollRegion` shows. `tableWidth` is a table's minimum width: none on a phone, `wide` above.
 */
export const WIDE_ONLY = { visibleFrom: 'sm' } as const;

export const tableWidth = (wide: number) => ({ base: 0, sm: wide });
