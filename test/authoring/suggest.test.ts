/** "Did you mean": the close known name, never an unrelated one. */
import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../../authoring/src/suggest.js';

describe('suggestions', () => {
  it('measures edits, a swapped pair of letters as one', () => {
    expect(editDistance('format', 'format')).toBe(0);
    expect(editDistance('fromat', 'format')).toBe(1);
    expect(editDistance('slide', 'slides')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('offers the closest name within a third of its letters, ignoring case', () => {
    expect(closest('leson', ['lesson', 'lab', 'sop'])).toBe('lesson');
    expect(closest('Lesson', ['lesson', 'lab'])).toBe('lesson');
    expect(closest('markdwon', ['typeset', 'markdown'])).toBe('markdown');
    expect(closest('quizz', ['assessment', 'lab', 'lesson', 'reference', 'sop'])).toBeUndefined();
    expect(closest('md', ['typeset', 'markdown'])).toBeUndefined();
    expect(closest('slides', ['slides'])).toBeUndefined();
  });
});
