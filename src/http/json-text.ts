import { isInListOrder, sortedItemsOf } from '../shared/listed-text.js';
import type { ListOrder } from '../shared/pagination.js';

/**
 * An answer whose JSON text is already written, sent as it is: for a long list the database has
 * written as JSON (the explorer's projects), parsing it only for `res.json` to serialize it again
 * would be most of the answer's cost. `Body` is what the text holds, so a handler's answer is
 * still checked against its operation's schema by the compiler, and by the contract's response
 * check in tests (the router's `sendJsonText`).
 */
export class JsonText<Body> {
  declare private readonly body?: Body;

  /** `bytes`: the whole answer's JSON text, in UTF-8. */
  private constructor(readonly bytes: Buffer) {}

  /** The text of `parts` (strings, or UTF-8 bytes) one after the other. */
  static of<Body>(...parts: (string | Buffer)[]): JsonText<Body> {
    return new JsonText(Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part))));
  }
}

/**
 * An answer holding one list the database wrote as JSON text in its order (`JsonTextSet`): the text
 * is the answer's as it is, between `opening` and `closing` (20,000 projects: no parse, no objects,
 * no serializing again), unless `isInListOrder` refuses it; the items are then sorted here into
 * `order` and `answer` makes the answer from them.
 */
export function listedAnswer<Answer, Item>(
  text: Buffer,
  order: ListOrder<Item>,
  [opening, closing]: [string, string],
  answer: (items: Item[]) => Answer,
): JsonText<Answer> | Answer {
  if (isInListOrder(text)) return JsonText.of<Answer>(opening, text, closing);
  return answer(sortedItemsOf(text, order));
}
