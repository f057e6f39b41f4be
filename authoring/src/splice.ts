/**
 * Changing an author's markdown without re-serializing it: each change replaces one span of the
 * source (found from mdast positions) and every other byte is copied as it is.
 */

/** Replace `source.slice(start, end)` by `text`; `start === end` inserts. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The source with the edits applied; edits must not overlap (insertions may touch a replacement). */
export function applyEdits(source: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let last = 0;
  for (const edit of sorted) {
    if (edit.start < last) throw new Error(`cph: overlapping edits at offset ${edit.start} (please report this)`);
    out += source.slice(last, edit.start) + edit.text;
    last = edit.end;
  }
  return out + source.slice(last);
}
