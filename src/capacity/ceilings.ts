import type { Config } from '../config/config.js';
import { CAPACITY_DIMENSIONS, type CapacityDimension } from './dimensions.js';

const KIB = 1024;
const MIB = 1024 * KIB;
const GIB = 1024 * MIB;

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
} as const;

/**
 * The built-in ceiling of every dimension (docs/decisions.md): no dimension is ever unlimited. An
 * operator overrides one with `HUB_CEILING_<DIMENSION>`. `requestBodySize` is the server's JSON
 * body limit (`HUB_BODY_LIMIT`, 8 MiB by default) rather than a number of its own, since no
 * request can carry more than the parser reads.
 */
export const BUILT_IN_CEILINGS: Readonly<Record<CapacityDimension, number>> = Object.freeze({
  requestRate: 600,
  requestBodySize: 8 * MIB,
  agentConcurrency: 8,
  admissionQueueLength: 100,
  admissionQueueWait: 300,
  ...SKILL_INGESTION_DEFAULTS,
  projectStorage: 10 * GIB,
  organizationStorage: 100 * GIB,
  memberCount: 10_000,
  projectCount: 100_000,
  teamCount: 1_000,
  folderCount: 10_000,
  sessionCount: 1_000_000,
  runWallTime: 3600,
  runTurns: 200,
  runToolCalls: 1000,
  toolWallTime: 600,
  runOutputSize: 10 * MIB,
  processMemory: 4 * GIB,
  processCpu: 2000,
  processCount: 64,
});

/**
 * The lowest organization limit a dimension takes, where a lower one would lock the organization
 * out of its own API (422 `capacity_below_floor`): at least one request a minute, and a body
 * large enough for the capacity PUT that would lift the limit. Operators are not held to them.
 */
export const ORGANIZATION_LIMIT_FLOORS: Readonly<Partial<Record<CapacityDimension, number>>> = Object.freeze({
  requestRate: 1,
  requestBodySize: 64 * KIB,
});

/** Every dimension's platform ceiling: the operator's value, else the built-in one. */
export function platformCeilings(
  config: Pick<Config, 'ceilings' | 'bodyLimitBytes'>,
): Readonly<Record<CapacityDimension, number>> {
  const defaults: Record<CapacityDimension, number> = { ...BUILT_IN_CEILINGS, requestBodySize: config.bodyLimitBytes };
  const resolved = {} as Record<CapacityDimension, number>;
  for (const dimension of CAPACITY_DIMENSIONS) resolved[dimension] = config.ceilings[dimension] ?? defaults[dimension];
  return Object.freeze(resolved);
}
