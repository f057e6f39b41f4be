import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../src/db/connect.js';
import { FACT_LEVELS, RUN_LEVELS } from '../../src/usage/rollup-levels.js';

/**
 * A JSON Lines file of runs for `hub usage ingest` (or services.usage.ingest) in `dir`;
 * strings are written as they are.
 */
export function writeJsonl(dir: string, name: string, lines: Array<Record<string, unknown> | string>): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
  return file;
}

/** One valid run line: 100 input and 10 output tokens for 0.5 USD, role `coder`, unless `extra` says otherwise. */
export const runLine = (projectId: string, sessionId: string, at: string, extra: Record<string, unknown> = {}) => ({
  projectId,
  sessionId,
  provider: 'anthropic',
  roleId: 'coder',
  model: 'model-a',
  at,
  inputTokens: 100,
  outputTokens: 10,
  costUsd: 0.5,
  ...extra,
});

/** Every row of every rollup level, each level's rows as sorted JSON: two states of them compare with toEqual. */
export async function rollupRows(db: Db): Promise<Record<string, string[]>> {
  const tables = [...RUN_LEVELS, ...FACT_LEVELS].map((level) => level.table);
  return Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await tableRows(db, t)] as const)));
}

/** The rows of a table, each as JSON with its columns sorted, in sorted order. */
export async function tableRows(db: Db, table: string): Promise<string[]> {
  const rows = await db(table).select('*');
  return rows.map((row) => JSON.stringify(row, Object.keys(row).sort())).sort();
}
