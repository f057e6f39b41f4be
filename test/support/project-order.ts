/**
 * The project lists' order (the explorer, my-projects), written out independently of the app's
 * own comparators: by name lower-cased, then exactly, then id, all by UTF-16 code units.
 */
export function inProjectListOrder<Project extends { id: string; name: string }>(projects: Project[]): Project[] {
  const byUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...projects].sort(
    (a, b) => byUnits(a.name.toLowerCase(), b.name.toLowerCase()) || byUnits(a.name, b.name) || byUnits(a.id, b.id),
  );
}
