import path from 'node:path';
import { parseModels, type AgentModel } from '../agents/models.js';
import { parseCeilings } from '../capacity/ceilings.js';
import type { DimensionValues } from '../capacity/dimensions.js';

/** Everything the service reads from its environment, parsed and checked once at start-up. */
export interface Config {
  port: number;
  dataDir: string;
  /** `postgres://…` selects PostgreSQL; undefined means the SQLite file in the data directory. */
  databaseUrl: string | undefined;
  /** Origin used in login links and by the CSRF check, without a trailing slash. */
  baseUrl: string;
  /** Largest JSON request body the server parses, in bytes. */
  bodyLimitBytes: number;
  logLevel: string;
  /**
   * Platform ceilings set by `HUB_CEILING_<DIMENSION>`; a dimension left out takes its runtime
   * default or none (`platformCeilings` in src/capacity/ceilings.ts).
   */
  ceilings: DimensionValues;
  /** The model picker (`/agent-models`) from `HUB_MODELS`, or the built-in list (src/agents/models.ts). */
  models: readonly AgentModel[];
}

export class ConfigError extends Error {}

const DEFAULT_PORT = 8080;
/** Skill installs carry whole directories as JSON, so the default is well above a typical API body. */
const DEFAULT_BODY_LIMIT = 8 * 1024 * 1024;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = parseInteger(env.PORT, 'PORT', DEFAULT_PORT, 0, 65535);
  const baseUrl = parseBaseUrl(env.HUB_BASE_URL ?? `http://localhost:${port}`);
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL (leave it unset for SQLite)');
  }
  const bodyLimitBytes = parseInteger(env.HUB_BODY_LIMIT, 'HUB_BODY_LIMIT', DEFAULT_BODY_LIMIT, 1024, 1024 ** 3);
  return {
    port,
    dataDir: path.resolve(env.HUB_DATA_DIR?.trim() || './data'),
    databaseUrl,
    baseUrl,
    bodyLimitBytes,
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    ceilings: parseCeilings(env, bodyLimitBytes),
    models: parseModels(env.HUB_MODELS),
  };
}

function parseInteger(raw: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function parseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`HUB_BASE_URL must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`HUB_BASE_URL must use http or https, got "${url.protocol}"`);
  }
  return url.origin;
}
