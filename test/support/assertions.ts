import { expect } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import type { HttpResult } from './test-hub.js';

/** The response is the error envelope with this status and code (and nothing else but `details` on a 400). */
export function expectError(res: HttpResult, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  if (status === 400) expect(res.body).toMatchObject({ error: { code, message: expect.any(String) } });
  else expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
}

/** The ConfigError loadConfig throws for this environment; fails the test when it accepts it. */
export function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}
