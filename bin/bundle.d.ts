/** Which bundle: its entry (relative to the project root) and the name its files take in dist/. */
export interface BundleOf {
  entry: string;
  name: string;
}
/** The bundle's path when it is current with every source it holds; undefined otherwise. hub's by default. */
export function currentBundle(root?: string, of?: Pick<BundleOf, 'name'>): string | undefined;
/** Bundles the entry's sources into dist/<name>.mjs with a manifest of the sources it holds. hub's by default. */
export function buildBundle(root?: string, of?: BundleOf): Promise<{ bundle: string; sources: number }>;
