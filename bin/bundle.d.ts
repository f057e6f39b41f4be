/** The bundle's path when it is current with every source it holds; undefined otherwise. */
export function currentBundle(root?: string): string | undefined;
/** Bundles the project's src/ into dist/hub.mjs with a manifest of the sources it holds. */
export function buildBundle(root?: string): Promise<{ bundle: string; sources: number }>;
