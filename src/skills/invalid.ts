import { unprocessable, type ApiError } from '../errors/api-error.js';

/** A skill that may not be installed: 422 `invalid_skill`. Nothing has been written when it is thrown. */
export const invalidSkill = (message: string): ApiError =>
  unprocessable('invalid_skill', `${message}; nothing was installed.`);

/**
 * A path or name as a message shows it: JSON-quoted, so control characters, lone surrogates and
 * line breaks are escaped and the message stays on one line.
 */
export const quoted = (text: string): string => JSON.stringify(text);
