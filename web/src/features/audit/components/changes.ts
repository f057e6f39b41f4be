/** One value that a change moved, at its path in the target as the API showed it. */
export interface FieldChange {
  /** The path, one part per level: a field's name, or the key of an array's row (`memberCount`). */
  path: string[];
  before: string;
  after: string;
}

/** What every secret in an audit event is replaced with by the service. */
const REDACTED = '[redacted]';

/** Fields that name an array's rows: rows are matched by them, not by position. */
const ROW_KEYS = ['dimension', 'id', 'userId', 'teamId', 'capabilityId', 'providerId', 'name', 'path'];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Row = { [key: string]: Json };

const isObject = (value: unknown): value is Row => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A value as the diff shows it: absence as "not set", secrets as "redacted". */
export function shown(value: unknown): string {
  if (value === undefined || value === null) return 'not set';
  if (value === REDACTED) return 'redacted';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => !isObject(item) && !Array.isArray(item)))
    return value.length === 0 ? 'none' : value.map(shown).join(', ');
  return JSON.stringify(value);
}

/** The field that names every row of both arrays, when they are arrays of objects that have one. */
function rowKeyOf(a: unknown[], b: unknown[]): string | undefined {
  const rows = [...a, ...b];
  if (rows.length === 0 || !rows.every(isObject)) return undefined;
  return ROW_KEYS.find((key) => rows.every((row) => typeof (row as Row)[key] === 'string'));
}

function walk(path: string[], before: unknown, after: unknown, out: FieldChange[]): void {
  if (isObject(before) && isObject(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)]))
      walk([...path, key], before[key], after[key], out);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const key = rowKeyOf(before, after);
    if (key) {
      const byKey = (rows: unknown[]) => new Map(rows.map((row) => [(row as Row)[key] as string, row]));
      const [was, now] = [byKey(before), byKey(after)];
      for (const name of new Set([...was.keys(), ...now.keys()])) {
        const [b, a] = [was.get(name), now.get(name)];
        // A row that came or went shows as a whole; a row on both sides by its fields.
        if (b === undefined || a === undefined) walk([...path, name], b, a, out);
        else walk([...path, name], withoutKey(b as Row, key), withoutKey(a as Row, key), out);
      }
      return;
    }
  }
  if (JSON.stringify(before ?? null) !== JSON.stringify(after ?? null))
    out.push({ path, before: shown(before), after: shown(after) });
}

const withoutKey = (row: Row, key: string): Row => Object.fromEntries(Object.entries(row).filter(([k]) => k !== key));

/**
 * Only what a change moved, leaf by leaf: objects are compared field by field, arrays of rows row
 * by row, matched by the field that names them (capacity rows by `dimension`), so a capacity
 * change reads `memberCount › organizationLimit: not set → 5` rather than two whole arrays. A
 * target that is new (before null) or gone (after null) lists each field it has as set or unset.
 */
export function fieldChanges(before: unknown, after: unknown): FieldChange[] {
  const out: FieldChange[] = [];
  walk([], before ?? (isObject(after) ? {} : before), after ?? (isObject(before) ? {} : after), out);
  return out;
}
