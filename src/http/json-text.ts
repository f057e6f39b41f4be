/**
 * An answer whose JSON text is already written, sent as it is: for a long list the database has
 * written as JSON (the explorer's projects), parsing it only for `res.json` to serialize it again
 * would be most of the answer's cost. `Body` is what the text holds, so a handler's answer is
 * still checked against its operation's schema by the compiler, and by the contract's response
 * check in tests (`sendAnswer`).
 */
export class JsonText<Body> {
  declare private readonly body?: Body;

  constructor(readonly text: string) {}
}
