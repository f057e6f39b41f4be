import { expect } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { loadConfig } from '../../src/config/config.js';
import type { ErrorEnvelope, HttpResult } from './api-client.js';

/**
 * The response is the error envelope with this status and code (and nothing else but `details` on a 400);
 * returns the envelope.
 */
export function expectError(res: HttpResult, status: number, code: string): ErrorEnvelope {
  expect(res.status, res.text).toBe(status);
  if (status === 400) expect(res.body).toMatchObject({ error: { code, message: expect.any(String) } });
  else expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
  return res.body as ErrorEnvelope;
}

/** The response has this status; from here on its body is typed as the operation's success body. */
export function expectOk<T>(res: HttpResult<T>, status = 200): asserts res is HttpResult<Exclude<T, ErrorEnvelope>> {
  expect(res.status, res.text).toBe(status);
}

/**
 * The body of a call that must succeed: with this status when one is given, else with any status
 * below 300; typed as the operation's success body.
 */
export async function okBody<T>(
  call: HttpResult<T> | Promise<HttpResult<T>>,
  status?: number,
): Promise<Exclude<T, ErrorEnvelope>> {
  const res = await call;
  if (status === undefined) expect(res.status, res.text).toBeLessThan(300);
  else expectOk(res, status);
  return res.body as Exclude<T, ErrorEnvelope>;
}

/** The error code of the response's body, or undefined when the body is no error envelope. */
export function errorCodeOf(res: HttpResult): string | undefined {
  const { body } = res;
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const { error } = body;
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/** The body is an error envelope (whatever its status); returns it. */
export function errorBody(res: HttpResult): ErrorEnvelope {
  expect(res.body, res.text).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
  return res.body as ErrorEnvelope;
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
