import type { Config } from '../config/config.js';
import { CAPACITY_DIMENSIONS, type CapacityDimension, type DimensionValues } from './dimensions.js';

const MIB = 1024 * 1024;

/**
 * The skill ingestion limits: the platform ceilings of their dimensions unless an operator sets
 * `HUB_CEILING_FILE_SIZE`, `HUB_CEILING_ATTACHMENT_COUNT` or `HUB_CEILING_ARCHIVE_EXPANSION`.
 * Skill ingestion reads them through the effective limits, never from here.
 */
export const SKILL_INGESTION_DEFAULTS = {
  /** Largest single file of a skill, in bytes. */
  fileSize: 5 * MIB,
  /** Most files in one skill. */
  attachmentCount: 1000,
  /** Largest total size of a skill's files, in bytes. */
  archiveExpansion: 50 * MIB,
} as const satisfies DimensionValues;

/**
 * Every dimension's platform ceiling: the operator's value, else the runtime setting that
 * already bounds it (the JSON body limit, the skill ingestion limits), else null.
 */
export function platformCeilings(config: Pick<Config, 'ceilings' | 'bodyLimitBytes'>): Readonly<Record<CapacityDimension, number | null>> {
  const defaults: DimensionValues = { requestBodySize: config.bodyLimitBytes, ...SKILL_INGESTION_DEFAULTS };
  const resolved = {} as Record<CapacityDimension, number | null>;
  for (const dimension of CAPACITY_DIMENSIONS) resolved[dimension] = config.ceilings[dimension] ?? defaults[dimension] ?? null;
  return Object.freeze(resolved);
}
