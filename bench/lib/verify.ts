import { isDeepStrictEqual } from 'node:util';
import type { LoadTarget } from './protocol.js';

/**
 * Checks run once before any load: a benchmark of a server that answers 401 or 404 measures the
 * error path, so a wrong answer stops the run instead of producing a number.
 */

/** Our endpoint answers 200 with the expected JSON; returns the body's size in bytes. */
export async function verifyOurAnswer(baseUrl: string, target: LoadTarget): Promise<number> {
  const { status, contentType, text } = await get(baseUrl + target.path, target.headers);
  const context = `GET ${target.path} on our server`;
  if (status !== 200) throw new Error(`${context} answered ${status}, expected 200: ${text.slice(0, 500)}`);
  assertJson(context, contentType);
  const body: unknown = JSON.parse(text);
  if (!isDeepStrictEqual(body, target.expectedBody)) {
    throw new Error(
      `${context} answered an unexpected body:\n  got      ${text}\n  expected ${JSON.stringify(target.expectedBody)}`,
    );
  }
  return Buffer.byteLength(text);
}

/** A comparison server answers 200 with a JSON body of exactly `bytes` bytes. */
export async function verifyStaticAnswer(
  name: string,
  url: string,
  headers: Record<string, string>,
  bytes: number,
): Promise<void> {
  const { status, contentType, text } = await get(url, headers);
  const context = `the ${name} server`;
  if (status !== 200) throw new Error(`${context} answered ${status}, expected 200`);
  assertJson(context, contentType);
  const actual = Buffer.byteLength(text);
  if (actual !== bytes)
    throw new Error(`${context} answered ${actual} body bytes, expected ${bytes} (the size of ours)`);
}

async function get(url: string, headers: Record<string, string>) {
  const response = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}

function assertJson(context: string, contentType: string): void {
  if (!contentType.startsWith('application/json'))
    throw new Error(`${context} answered content-type "${contentType}", expected application/json`);
}
