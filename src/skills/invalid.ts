import { unprocessable, type ApiError } from '../errors/api-error.js';

/** A skill that may not be installed: 422 `invalid_skill`. Nothing has been written when it is thrown. */
export const invalidSkill = (message: string): ApiError => unprocessable('invalid_skill', `${message}; nothing was installed.`);

/**
 * A path or name as a message shows it: JSON-quoted, so control characters, lone surrogates and
 * line breaks are escaped and the message stays on one line.
 */
export const quoted = (text: string): string => JSON.stringify(text);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the string has no lone surrogate, i.e. it can be written as UTF-8 without loss. */
export const isWellFormed = (text: string): boolean => !LONE_SURROGATE.test(text);
