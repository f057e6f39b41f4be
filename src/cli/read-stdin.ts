import type { Readable } from 'node:stream';
import { UsageError } from './usage-error.js';

/** A command's stdin as text, refused beyond `maxBytes` (secrets and small JSON, never a stream of data). */
export async function readStdin(stream: Readable, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > maxBytes) throw new UsageError(`stdin is larger than ${maxBytes} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
