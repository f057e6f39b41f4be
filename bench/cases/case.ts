/** One selectable benchmark of `npm run bench [-- <case>…]`. */
export interface BenchCase {
  name: string;
  /** One line for the usage text. */
  summary: string;
  /** Runs the case and prints its report; resolves to the exit code it asks for (0 when valid). */
  run(): Promise<number>;
  /** Releases whatever a run in progress holds (children, temp dirs, databases); never throws. */
  abort(): Promise<void>;
}
