/**
 * The lists' orders by name, written out independently of the app's own comparators: by name
 * lower-cased, then exactly, then a unique key, all by UTF-16 code units.
 */
const byUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function inNameOrder<Item>(items: Item[], name: (item: Item) => string, key: (item: Item) => string): Item[] {
  return [...items].sort(
    (a, b) =>
      byUnits(name(a).toLowerCase(), name(b).toLowerCase()) || byUnits(name(a), name(b)) || byUnits(key(a), key(b)),
  );
}

/** The project lists (the explorer, my-projects): by name, then id. */
export const inProjectListOrder = <Project extends { id: string; name: string }>(projects: Project[]): Project[] =>
  inNameOrder(
    projects,
    (p) => p.name,
    (p) => p.id,
  );

/** The member list: by display name, then imOpenId. */
export const inMemberListOrder = <Member extends { displayName: string; imOpenId: string }>(members: Member[]) =>
  inNameOrder(
    members,
    (m) => m.displayName,
    (m) => m.imOpenId,
  );
