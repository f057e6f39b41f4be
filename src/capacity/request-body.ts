import type { IncomingMessage } from 'node:http';

const BODY_BYTES = Symbol('bodyBytes');

type Measured = IncomingMessage & { [BODY_BYTES]?: number };

/**
 * The JSON parser's `verify` hook: notes the body's length in bytes as read (after any
 * content decoding), whatever Content-Length said or whether it was sent at all.
 */
export function noteBodyBytes(req: IncomingMessage, _res: unknown, body: Buffer): void {
  (req as Measured)[BODY_BYTES] = body.length;
}

/** The parsed body's length in bytes; undefined when no body was parsed. */
export const bodyBytesOf = (req: IncomingMessage): number | undefined => (req as Measured)[BODY_BYTES];
