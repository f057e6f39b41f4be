/** A mistake in how a command was called: reported as one line on stderr, exit code 2. */
export class UsageError extends Error {}
