import type { Schema } from '../api/types.js';
import { type Fields, projection } from '../shared/projection.js';
import type { CapacityDimension } from './dimensions.js';

/** The capacity policy as the API shows it, with what the organization uses now. */
export type CapacityPolicyView = Schema<'CapacityPolicyView'>;
type CapacityRow = Schema<'CapacityDimensionRow'>;
type PolicyRow = Omit<CapacityRow, 'inUse'>;

/** One dimension's limits: its platform ceiling and the organization's own limit, null where it set none. */
export interface DimensionLimitRecord {
  dimension: CapacityDimension;
  platform_ceiling: number;
  organization_limit: number | null;
}

/** A dimension's limits with its use, null where the agent runtime measures it. */
export interface DimensionRecord extends DimensionLimitRecord {
  in_use: number | null;
}

/** The policy alone, as its audit events record it: what changes when a limit does. */
export interface CapacityPolicy {
  dimensions: PolicyRow[];
}

/**
 * The limit that applies: the lower of the platform ceiling and the organization's limit, the
 * ceiling when the organization set none. Every dimension has a platform ceiling, so the policy
 * always passes a number and gets one back; the null cases only mirror the
 * `CapacityDimensionRow` type, which keeps the contract's "number or null" shape.
 */
export function effectiveOf(ceiling: number | null, organizationLimit: number | null): number | null {
  if (organizationLimit === null) return ceiling;
  if (ceiling === null) return organizationLimit;
  return Math.min(ceiling, organizationLimit);
}

const limitFields: Fields<DimensionLimitRecord, PolicyRow> = {
  dimension: 'dimension',
  platformCeiling: 'platform_ceiling',
  organizationLimit: 'organization_limit',
  effective: { from: (row) => effectiveOf(row.platform_ceiling, row.organization_limit) },
};

/** A dimension of the policy as its audit events record it. */
export const dimensionLimitProjection = projection<DimensionLimitRecord, PolicyRow>()({ fields: limitFields });

/** A dimension of the policy as the API shows it, with its use. */
export const dimensionProjection = projection<DimensionRecord, CapacityRow>()({
  fields: { ...limitFields, inUse: 'in_use' },
});
