import type { ErrorDetail } from '../../errors/api-error.js';

/**
 * The tokens of JSON text that matter to its keys: a string (a key when a colon follows it), a
 * bracket, or a comma. Numbers, literals and whitespace lie between them and are skipped; a
 * string's commas, brackets and escaped quotes are inside its own match.
 */
const TOKEN = /"[^"\\]*(?:\\.[^"\\]*)*"(\s*:)?|[{}[\],]/g;

/** An object or array the scan is inside, with what it takes to name a member's JSON pointer. */
type Frame = { keys: Set<string>; key: string } | { index: number };

/**
 * The first key given twice in one object of `text`, which must be valid JSON (JSON.parse took
 * it): JSON.parse keeps the last silently, so a client that meant the first would have its value
 * dropped unseen. Keys compare as the strings they decode to, so `"a"` and `"\u0061"` are one key.
 */
export function duplicateKey(text: string): ErrorDetail | undefined {
  const stack: Frame[] = [];
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match !== null; match = TOKEN.exec(text)) {
    const [token] = match;
    const frame = stack[stack.length - 1];
    if (token === '{') stack.push({ keys: new Set(), key: '' });
    else if (token === '[') stack.push({ index: 0 });
    else if (token === '}' || token === ']') stack.pop();
    else if (token === ',') {
      if (frame && 'index' in frame) frame.index++;
    } else if (match[1] !== undefined && frame && 'keys' in frame) {
      const quoted = token.slice(0, token.lastIndexOf('"') + 1);
      const key = quoted.includes('\\') ? (JSON.parse(quoted) as string) : quoted.slice(1, -1);
      frame.key = key;
      if (frame.keys.has(key)) return { path: pointerOf(stack), message: 'is given more than once in its object' };
      frame.keys.add(key);
    }
  }
  return undefined;
}

/** The JSON pointer under `/body` of the member the innermost frame is at (RFC 6901 escapes). */
function pointerOf(stack: Frame[]): string {
  const parts = stack.map((frame) =>
    'keys' in frame ? frame.key.replace(/~/g, '~0').replace(/\//g, '~1') : String(frame.index),
  );
  return ['/body', ...parts].join('/');
}
