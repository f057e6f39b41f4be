import type { Schema } from '../api/types.js';

export type CapacityDimension = Schema<'CapacityDimension'>;

/**
 * The 23 dimensions in the order of `CapacityDimension` in openapi.yaml, which is the order the
 * policy view lists them in. The compiler checks every entry is a dimension of the contract and
 * that none is missing; a test checks the order.
 */
export const CAPACITY_DIMENSIONS = [
  'requestRate',
  'requestBodySize',
  'agentConcurrency',
  'admissionQueueLength',
  'admissionQueueWait',
  'fileSize',
  'attachmentCount',
  'archiveExpansion',
  'projectStorage',
  'organizationStorage',
  'memberCount',
  'projectCount',
  'teamCount',
  'folderCount',
  'sessionCount',
  'runWallTime',
  'runTurns',
  'runToolCalls',
  'toolWallTime',
  'runOutputSize',
  'processMemory',
  'processCpu',
  'processCount',
] as const satisfies readonly CapacityDimension[];

type Unlisted = Exclude<CapacityDimension, (typeof CAPACITY_DIMENSIONS)[number]>;
// Fails to compile, naming the dimension, when openapi.yaml gains one the list lacks.
const everyDimensionListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyDimensionListed;

const DIMENSION_NAMES: ReadonlySet<string> = new Set(CAPACITY_DIMENSIONS);

/** Whether the text names a dimension (exactly, case-sensitive). */
export const isCapacityDimension = (text: string): text is CapacityDimension => DIMENSION_NAMES.has(text);

/** A value for some dimensions: an organization's limits, or the ceilings an operator set. */
export type DimensionValues = Partial<Record<CapacityDimension, number>>;

/** Limits to set (a number) or clear (null); the dimensions absent stay as they are. */
export type LimitChanges = Partial<Record<CapacityDimension, number | null>>;

/** `memberCount` → `MEMBER_COUNT`, the suffix of its ceiling variable. */
export const screamingSnake = (dimension: CapacityDimension): string =>
  dimension.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();

/** The environment variable that sets the dimension's platform ceiling. */
export const ceilingVariable = (dimension: CapacityDimension): string => `HUB_CEILING_${screamingSnake(dimension)}`;

export type CapacityUnit = 'bytes' | 'seconds' | 'millicores' | 'requests per minute' | 'count';

const UNITS: Partial<Record<CapacityDimension, CapacityUnit>> = {
  requestRate: 'requests per minute',
  requestBodySize: 'bytes',
  fileSize: 'bytes',
  archiveExpansion: 'bytes',
  projectStorage: 'bytes',
  organizationStorage: 'bytes',
  runOutputSize: 'bytes',
  processMemory: 'bytes',
  admissionQueueWait: 'seconds',
  runWallTime: 'seconds',
  toolWallTime: 'seconds',
  processCpu: 'millicores',
};

/**
 * What the dimension's numbers measure: sizes in bytes, times in seconds, CPU in millicores, the rate per minute, the
 * rest as counts.
 */
export const unitOf = (dimension: CapacityDimension): CapacityUnit => UNITS[dimension] ?? 'count';
