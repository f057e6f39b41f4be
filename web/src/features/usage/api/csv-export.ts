/**
 * Where the browser downloads a usage answer as CSV: the operation's own URL with `format=csv`,
 * which the server streams as a file (its name from the answer's Content-Disposition). A plain
 * link, so a large export goes to disk as it arrives instead of through the page's memory.
 */
export function usageCsvHref(
  orgSlug: string,
  path: '/usage' | '/usage/breakdown' | '/usage/series',
  query: Record<string, string | undefined>,
): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
  params.set('format', 'csv');
  return `/api/org/${encodeURIComponent(orgSlug)}${path}?${params}`;
}
