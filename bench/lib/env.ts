import path from 'node:path';
import { loadConfig, type Config } from '../../src/config/config.js';

/**
 * The one place the bench reads its environment: each setting by name, checked, with its default.
 * Cases and servers ask here; nothing else in bench/ reads process.env.
 */

const raw = (name: string): string | undefined => process.env[name]?.trim() || undefined;

/** A whole-number setting from the environment, checked against its range. */
export function envInteger(name: string, fallback: number, min: number, max: number): number {
  const text = raw(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${text}"`);
  return value;
}

/** A decimal setting from the environment, checked against its range (min exclusive). */
export function envNumber(name: string, fallback: number, minExclusive: number, max: number): number {
  const text = raw(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= minExclusive || value > max)
    throw new Error(`${name} must be a number above ${minExclusive} and at most ${max}, got "${text}"`);
  return value;
}

/** A switch: `1` on, `0` off, unset the fallback. */
export function envSwitch(name: string, fallback: boolean): boolean {
  const text = raw(name);
  if (text === undefined) return fallback;
  if (text !== '0' && text !== '1') throw new Error(`${name} must be 0 or 1, got "${text}"`);
  return text === '1';
}

/** One of the named choices, or undefined when unset. */
export function envChoice<T extends string>(name: string, choices: readonly T[]): T | undefined {
  const text = raw(name);
  if (text === undefined) return undefined;
  if (!(choices as readonly string[]).includes(text))
    throw new Error(`${name} must be one of ${choices.join(', ')}, got "${text}"`);
  return text as T;
}

/** DATABASE_URL: the PostgreSQL server a case runs on, or undefined for a temp SQLite file. */
export function benchDatabaseUrl(): string | undefined {
  return raw('DATABASE_URL');
}

/** The environment handed on to a process the bench starts (`hub serve`), or read as production reads it. */
export function inheritedEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env };
}

/** A checkout of the service loaded beside ours in `load`, under its own name. */
export interface Baseline {
  name: string;
  checkout: string;
}

/**
 * BENCH_BASELINE: other checkouts to load beside ours in the same rounds, for an A/B of a change.
 * Either one directory (named `baseline`) or a comma-separated list of `name=directory`.
 */
export function benchBaselines(): Baseline[] {
  const text = raw('BENCH_BASELINE');
  if (text === undefined) return [];
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.length === 1 && !entries[0]!.includes('='))
    return [{ name: 'baseline', checkout: path.resolve(entries[0]!) }];
  const baselines = entries.map((entry) => {
    const match = /^([a-z][a-z0-9-]*)=(.+)$/.exec(entry);
    if (!match) throw new Error(`BENCH_BASELINE: "${entry}" is not name=directory (name: a-z, 0-9, -)`);
    return { name: match[1]!, checkout: path.resolve(match[2]!) };
  });
  const names = baselines.map((b) => b.name);
  const repeated = names.find((name, i) => names.indexOf(name) !== i || ['ours', 'express', 'bare'].includes(name));
  if (repeated) throw new Error(`BENCH_BASELINE: the name "${repeated}" is taken`);
  return baselines;
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
