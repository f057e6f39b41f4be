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
