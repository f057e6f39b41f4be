import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { IngestError } from './ingest-tally.js';
import { checkRunLine, parseRunLine, type RunLine } from './run-line.js';

/**
 * The runs of one ingest, checked one by one as they are read, each with the line that gave it:
 * the lines of a JSON Lines file (`hub usage ingest`) or of an NDJSON body, or the items of a
 * JSON array (`ingestUsageRuns`, where item N is line N). A run that fails its check is an
 * IngestError naming its line, which rolls the whole ingest back.
 */
export type RunSource = AsyncIterable<{ run: RunLine; line: number }> | Iterable<{ run: RunLine; line: number }>;

/**
 * The lines of a JSON Lines file, read as a stream once the ingest starts reading: the file is
 * opened by the generator's first step, as a line reader emits lines whether or not anyone
 * iterates it yet, and lines emitted before the loop begins would be lost.
 */
export async function* runsOfFile(file: string): AsyncGenerator<{ run: RunLine; line: number }> {
  yield* runsOfLines(createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity }));
}

/** Lines of JSON text, one run each; blank lines are skipped but counted. */
export async function* runsOfLines(
  lines: AsyncIterable<string> | Iterable<string>,
): AsyncGenerator<{ run: RunLine; line: number }> {
  let line = 0;
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    yield checked(line, () => parseRunLine(text));
  }
}

/** The lines of an NDJSON text (LF or CRLF). */
export const runsOfText = (text: string): RunSource => runsOfLines(text.split(/\r?\n/));

/** The items of a JSON array already parsed, item N (from 1) as line N. */
export function* runsOfItems(items: readonly unknown[]): Generator<{ run: RunLine; line: number }> {
  for (const [i, item] of items.entries()) yield checked(i + 1, () => checkRunLine(item));
}

function checked(line: number, check: () => RunLine): { run: RunLine; line: number } {
  try {
    return { run: check(), line };
  } catch (err) {
    if (err instanceof IngestError) throw err;
    throw new IngestError(`line ${line}: ${(err as Error).message}`);
  }
}
