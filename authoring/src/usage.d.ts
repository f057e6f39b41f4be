/** Types of usage.js (plain JavaScript so that help needs no TypeScript loader). */
export declare const USAGE: string;
export declare const COMMAND_USAGE: Readonly<Record<'check' | 'build' | 'init' | 'targets' | 'help', string>>;
export declare function version(): string;
export declare function helpText(argv: readonly string[]): string | undefined;
