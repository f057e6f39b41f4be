/** What the seeds of the structure and usage cases share: the words names are made of, and rows they both write. */

/** Words the seeds make names of (teams, folders, projects), in mixed case as people write them. */
export const WORDS = [
  'Atlas',
  'beacon',
  'Cobalt',
  'delta',
  'Ember',
  'Fjord',
  'granite',
  'Harbor',
  'Iris',
  'juniper',
  'Kestrel',
  'Lumen',
  'Meridian',
  'nimbus',
] as const;

/** A row of `folders` as the seeds insert it. */
export interface FolderRow {
  id: string;
  organization_id: string;
  parent_id: string | null;
  name: string;
  sort_key: string;
  created_at: string;
  archived_at: string | null;
}
