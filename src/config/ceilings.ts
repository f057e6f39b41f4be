import {
  CAPACITY_DIMENSIONS,
  ceilingVariable,
  unitOf,
  type CapacityDimension,
  type DimensionValues,
} from '../capacity/dimensions.js';
import { ConfigError } from './config-error.js';

const PREFIX = 'HUB_CEILING_';
/** Plain decimal notation only: no sign, exponent, hex or unit suffix, so a typo cannot parse as something else. */
const PLAIN_NUMBER = /^\d+(\.\d+)?$/;

/**
 * The platform ceilings an operator set with `HUB_CEILING_<DIMENSION>` (the dimension in
 * SCREAMING_SNAKE_CASE), over the built-in ones (src/capacity/ceilings.ts). An empty value counts
 * as unset, like every other variable. A value that is not a positive number (0 would be a
 * ceiling nobody can use; "unlimited" does not exist), a variable naming no dimension, or a
 * request body ceiling above the body parser's limit throws a ConfigError naming the variable,
 * which stops start-up.
 */
export function parseCeilings(env: NodeJS.ProcessEnv, bodyLimitBytes: number): DimensionValues {
  const dimensionOf = new Map<string, CapacityDimension>(CAPACITY_DIMENSIONS.map((d) => [ceilingVariable(d), d]));
  const ceilings: DimensionValues = {};
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith(PREFIX)) continue;
    const dimension = dimensionOf.get(name);
    if (!dimension) {
      const known = [...dimensionOf.keys()].map((v) => v.slice(PREFIX.length)).join(', ');
      throw new ConfigError(`${name} names no capacity dimension; the suffix after ${PREFIX} must be one of ${known}`);
    }
    const text = raw?.trim() ?? '';
    if (text === '') continue;
    const value = Number(text);
    if (!PLAIN_NUMBER.test(text) || !Number.isFinite(value) || value <= 0) {
      throw new ConfigError(`${name} must be a positive number (${unitOf(dimension)}), got "${raw}"`);
    }
    ceilings[dimension] = value;
  }
  const bodyCeiling = ceilings.requestBodySize;
  // The parser refuses anything above HUB_BODY_LIMIT before an organization is known, so a higher
  // ceiling would promise bodies no request can carry.
  if (bodyCeiling !== undefined && bodyCeiling > bodyLimitBytes) {
    throw new ConfigError(
      `${ceilingVariable('requestBodySize')} (${bodyCeiling}) must not exceed HUB_BODY_LIMIT (${bodyLimitBytes}), ` +
        `the largest body the server reads; lower it or raise HUB_BODY_LIMIT`,
    );
  }
  return ceilings;
}
