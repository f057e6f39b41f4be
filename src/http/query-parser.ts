import querystring from 'node:querystring';

/**
 * The query string as Express hands it to the pipeline, with empty values left out (docs/decisions.md,
 * "Input the server refuses"), so `?from=&to=` means "no from, no to", as a form that
 * submits empty inputs intends, not "from is the empty string".
 */
export function parseQueryWithoutEmptyValues(text: string): Record<string, string | string[]> {
  const parsed = querystring.parse(text);
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(parsed)) {
    const present = (Array.isArray(value) ? value : [value]).filter((v): v is string => v !== undefined && v !== '');
    if (present.length === 1) query[name] = present[0] as string;
    else if (present.length > 1) query[name] = present;
  }
  return query;
}
