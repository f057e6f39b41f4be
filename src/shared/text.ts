import { CONTROL_CHARACTERS } from './control-characters.js';

export { CONTROL_CHARACTERS };

/** A name, label or handle (`format: name` in openapi.yaml): one line, no control characters, not blank. */
export const isName = (text: string): boolean => !CONTROL_CHARACTERS.test(text) && /\S/u.test(text);

/**
 * Text either database can store: PostgreSQL's text type cannot hold U+0000, and a lone
 * surrogate is not text in any encoding.
 */
export const isStorableText = (text: string): boolean => !text.includes('\u0000') && text.isWellFormed();

/** Why text that is not `isStorableText` is refused, wherever in a request it is. */
export const UNSTORABLE_TEXT = 'must not contain U+0000 or a lone surrogate';
