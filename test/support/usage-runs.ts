import fs from 'node:fs';
import path from 'node:path';

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
