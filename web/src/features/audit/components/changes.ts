/** One field of a before/after pair, as the change view lists it. */
export interface FieldChange {
  field: string;
  before: string;
  after: string;
  changed: boolean;
}

const show = (value: unknown): string =>
  value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/**
 * The fields of an audited target before and after a change, changed ones first. A target that
 * is new (before null) or gone (after null) lists every field of the side it has.
 */
export function fieldChanges(before: unknown, after: unknown): FieldChange[] {
  const asRecord = (v: unknown): Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : v == null
        ? {}
        : { value: v };
  const b = asRecord(before);
  const a = asRecord(after);
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  const rows = fields.map((field) => {
    const [x, y] = [show(b[field]), show(a[field])];
    return { field, before: x, after: y, changed: before === null || after === null ? true : x !== y };
  });
  return [...rows.filter((r) => r.changed), ...rows.filter((r) => !r.changed)];
}
