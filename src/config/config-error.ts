/** A malformed setting: its one-line message names the variable, and it stops start-up. */
export class ConfigError extends Error {}
