import { randomUUID } from 'node:crypto';
import { ListedText } from '../shared/listed-text.js';

/**
 * What a handler answers: its operation's body, where a list may be the text the database wrote
 * for it (`ListedText`), so the answer is still checked against its operation's schema by the
 * compiler.
 */
export type Answer<Body> = Body extends object
  ? { [K in keyof Body]: Body[K] extends readonly (infer Item)[] ? Body[K] | ListedText<Item> : Body[K] }
  : Body;

/**
 * The JSON text of an answer that holds a listed text among its members: the answer serialized as
 * `res.json` would, each listed text written in its list's place as it is. Undefined for any other
 * answer, which `res.json` sends.
 */
export function listedAnswerText(answer: unknown): Buffer | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  let marked: Record<string, unknown> | undefined;
  const texts: Buffer[] = [];
  // A mark no answer can hold otherwise, written in place of each listed text, then cut out.
  let mark = '';
  for (const [name, value] of Object.entries(answer)) {
    if (!(value instanceof ListedText)) continue;
    marked ??= { ...answer };
    mark ||= `listed:${randomUUID()}`;
    marked[name] = mark;
    texts.push(value.bytes);
  }
  if (!marked) return undefined;
  const parts = JSON.stringify(marked).split(JSON.stringify(mark));
  return Buffer.concat(
    parts.flatMap((part, i) => (i === 0 ? [Buffer.from(part)] : [texts[i - 1]!, Buffer.from(part)])),
  );
}
