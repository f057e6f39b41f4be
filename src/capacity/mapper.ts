import type { Schema } from '../api/types.js';
import { CAPACITY_DIMENSIONS, type CapacityDimension, type DimensionValues } from './dimensions.js';

/** The capacity policy as the API shows it, with what the organization uses now. */
export type CapacityPolicyView = Schema<'CapacityPolicyView'>;
type CapacityRow = Schema<'CapacityDimensionRow'>;

/** The policy alone, as its audit events record it: what changes when a limit does. */
export interface CapacityPolicy {
  dimensions: Omit<CapacityRow, 'inUse'>[];
}

/**
 * The limit that applies: the lower of the platform ceiling and the organization's limit, the
 * ceiling when the organization set none. Every dimension has a ceiling (docs/decisions.md), so the
 * policy view always passes a number and gets one back; the null cases only mirror the
 * `CapacityDimensionRow` type, which keeps the contract's "number or null" shape.
 */
export function effectiveOf(ceiling: number | null, organizationLimit: number | null): number | null {
  if (organizationLimit === null) return ceiling;
  if (ceiling === null) return organizationLimit;
  return Math.min(ceiling, organizationLimit);
}

/** Every dimension in contract order: its platform ceiling, the organization's own limit and the effective one. */
export const toCapacityPolicy = (
  ceilings: Readonly<Record<CapacityDimension, number>>,
  limits: DimensionValues,
): CapacityPolicy => ({
  dimensions: CAPACITY_DIMENSIONS.map((dimension) => {
    const platformCeiling = ceilings[dimension];
    const organizationLimit = limits[dimension] ?? null;
    return {
      dimension,
      platformCeiling,
      organizationLimit,
      effective: effectiveOf(platformCeiling, organizationLimit),
    };
  }),
});

/**
 * The policy with each counted dimension's use (null where the agent runtime measures it), and a
 * warning for each dimension used beyond its effective limit: a limit may be set below what is in
 * use (nothing existing is removed), and then nothing more of it can be added until use is below.
 */
export function toCapacityPolicyView(policy: CapacityPolicy, inUse: DimensionValues): CapacityPolicyView {
  const dimensions = policy.dimensions.map((row) => ({ ...row, inUse: inUse[row.dimension] ?? null }));
  const warnings = dimensions.flatMap(({ dimension, inUse: used, effective }) =>
    used !== null && effective !== null && used > effective
      ? [
          {
            dimension,
            inUse: used,
            effective,
            message:
              `${dimension}: ${used} in use, above the limit of ${effective}. Nothing in use is removed; ` +
              'nothing more can be added until use is below the limit.',
          },
        ]
      : [],
  );
  return { dimensions, warnings };
}
