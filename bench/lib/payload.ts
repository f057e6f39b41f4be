const EMPTY = JSON.stringify({ data: '' });

/**
 * A static JSON object whose serialized form is exactly `bytes` bytes long, so the comparison
 * servers put the same number of body bytes on the wire as our endpoint does.
 * ASCII padding keeps the byte count equal to the character count.
 */
export function jsonOfLength(bytes: number): { data: string } {
  const padding = bytes - Buffer.byteLength(EMPTY);
  if (padding < 0) throw new Error(`a JSON payload cannot be shorter than ${EMPTY.length} bytes, asked for ${bytes}`);
  const payload = { data: 'x'.repeat(padding) };
  // A guard against a future edit breaking the arithmetic: a size mismatch would skew the comparison silently.
  const actual = Buffer.byteLength(JSON.stringify(payload));
  if (actual !== bytes) throw new Error(`payload is ${actual} bytes, wanted ${bytes}`);
  return payload;
}
