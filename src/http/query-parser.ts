/**
 * The query string as Express hands it to the pipeline: the one way every operation reads its
 * query (docs/decisions.md, "Query strings, read one way").
 *
 * - Percent-encoding is decoded and nothing else: a `+` is a plus sign, as RFC 3986 reads a URL
 *   (the form-encoding habit of `+` for a space would turn `from=2026-11-01T00:00:00+01:00`
 *   into a time with a space in it). A space is sent as `%20`, which every URL library does.
 * - Empty values are left out ("Input the server refuses"), so `?from=&to=` means "no from, no
 *   to", as a form that submits empty inputs intends, not "from is the empty string".
 * - A value whose percent-encoding is malformed is kept as sent; the pipeline refuses it with a
 *   400 naming the parameter (src/http/pipeline/parameter-text.ts).
 */
export function parseQueryWithoutEmptyValues(text: string | null | undefined): Record<string, string | string[]> {
  const values = new Map<string, string[]>();
  // Express hands over null when the URL has no query string.
  for (const pair of (text ?? '').split('&')) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const name = decoded(at < 0 ? pair : pair.slice(0, at));
    const value = at < 0 ? '' : decoded(pair.slice(at + 1));
    if (value === '') continue;
    const list = values.get(name);
    if (list) list.push(value);
    else values.set(name, [value]);
  }
  const query: Record<string, string | string[]> = {};
  for (const [name, list] of values) {
    // Defined, not assigned: a parameter named `__proto__` is a parameter like any other.
    const value = list.length === 1 ? list[0]! : list;
    Object.defineProperty(query, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return query;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
