import { loadConfig, type Config } from '../../src/config/config.js';

/** A whole-number setting from the environment, checked against its range. */
export function envInteger(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return value;
}

/** A decimal setting from the environment, checked against its range (min exclusive). */
export function envNumber(name: string, fallback: number, minExclusive: number, max: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= minExclusive || value > max)
    throw new Error(`${name} must be a number above ${minExclusive} and at most ${max}, got "${raw}"`);
  return value;
}

/**
 * The app's configuration for an in-process case: the defaults, the scratch database, and a
 * per-organization request rate no timed loop reaches (still counted on every request), so a
 * case times the answer, not a 429.
 */
export function benchConfig(scratch: { dataDir: string; databaseUrl: string | undefined }): Config {
  const defaults = loadConfig({});
  return {
    ...defaults,
    dataDir: scratch.dataDir,
    databaseUrl: scratch.databaseUrl,
    ceilings: { ...defaults.ceilings, requestRate: 1e9 },
  };
}
