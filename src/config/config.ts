import path from 'node:path';
import type { DimensionValues } from '../capacity/dimensions.js';
import { parseCeilings } from './ceilings.js';
import { ConfigError } from './config-error.js';
import { parseMasterKeyVariables, type MasterKeys } from './master-keys.js';
import { parseModels, type AgentModel } from './models.js';

/**
 * Everything the service and the host console read from the environment, parsed and checked
 * once at start-up. This folder is the only place that reads `process.env`.
 */
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
  /** The model picker (`/agent-models`) from `HUB_MODELS`, or the built-in list (src/config/models.ts). */
  models: readonly AgentModel[];
  /** `HUB_MASTER_KEYS` / `HUB_ACTIVE_KEY_ID`; undefined means the key file in the data directory. */
  masterKeys: MasterKeys | undefined;
  /**
   * `hub connection platform` only: the provider credentials to seal, from
   * `HUB_PROVIDER_AUTH_TOKEN` and `HUB_PROVIDER_VENDOR_API_KEY` (else the command reads stdin).
   */
  platformProvider: { authToken: string | undefined; vendorApiKey: string | undefined };
}

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
    masterKeys: parseMasterKeyVariables(env.HUB_MASTER_KEYS?.trim() || undefined, env.HUB_ACTIVE_KEY_ID?.trim() || undefined),
    platformProvider: {
      authToken: env.HUB_PROVIDER_AUTH_TOKEN || undefined,
      vendorApiKey: env.HUB_PROVIDER_VENDOR_API_KEY || undefined,
    },
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
