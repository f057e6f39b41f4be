/** Organization and team slugs: lowercase letters, digits and dashes, not starting with a dash, at most 63. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
