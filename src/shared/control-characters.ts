// Its own file, free of imports and of newer built-ins, because the web app imports it too.

/** C0 and C1 control characters (NUL among them), DEL, and the Unicode line and paragraph separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose.
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
