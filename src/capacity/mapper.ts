import type { Schema } from '../api/types.js';
import { CAPACITY_DIMENSIONS, type CapacityDimension, type DimensionValues } from './dimensions.js';

/** The capacity policy as the API shows it, and as its audit events record it. */
export type CapacityPolicyView = Schema<'CapacityPolicyView'>;

/**
 * The limit that applies: the lower of the platform ceiling and the organization's limit, the
 * ceiling when the organization set none. Every dimension has a ceiling (DESIGN §5), so the
 * policy view always passes a number and gets one back; the null cases only mirror the
 * `CapacityDimensionRow` type, which keeps the spec's "number or null" shape.
 */
export function effectiveOf(ceiling: number | null, organizationLimit: number | null): number | null {
  if (organizationLimit === null) return ceiling;
  if (ceiling === null) return organizationLimit;
  return Math.min(ceiling, organizationLimit);
}

/** Every dimension in contract order: its platform ceiling, the organization's own limit and the effective one. */
export const toCapacityPolicyView = (
  ceilings: Readonly<Record<CapacityDimension, number>>,
  limits: DimensionValues,
): CapacityPolicyView => ({
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
