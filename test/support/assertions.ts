import { expect } from 'vitest';
import type { HttpResult } from './test-hub.js';

/** The response is the error envelope with this status and code (and nothing else but `details` on a 400). */
export function expectError(res: HttpResult, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  if (status === 400) expect(res.body).toMatchObject({ error: { code, message: expect.any(String) } });
  else expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
}
