import { listOperations, type OpenApiDocument } from './openapi-document.js';

/**
 * Routes of the web app (web/src/app/router.tsx) whose path holds a secret, written as openapi
 * templates: the invitation page carries the invitation's token, which accepts it.
 */
export const WEB_SECRET_ROUTES = ['/invite/{token}'] as const;

/**
 * The path templates of the operations that mark path parameters secret with
 * `x-secret-path-params` in openapi.yaml (the invitation links, whose token accepts them).
 */
export function secretPathTemplates(spec: OpenApiDocument): string[] {
  return listOperations(spec).flatMap(({ path, operation }) => {
    const secret = operation['x-secret-path-params'];
    return Array.isArray(secret) && secret.length > 0 ? [cutAfterLastSecret(path, secret as string[])] : [];
  });
}

/** The template up to and including its last secret parameter: what follows it holds no secret. */
function cutAfterLastSecret(template: string, secret: readonly string[]): string {
  const segments = template.split('/');
  const isSecret = (segment: string) => secret.includes(segment.replace(/^\{(.*)\}$/, '$1'));
  const last = segments.map(isSecret).lastIndexOf(true);
  return segments.slice(0, last + 1).join('/');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * How a request's path is written where others read it (the access log): a path under one of the
 * templates has the segments those templates name replaced by the template's `{name}`, whatever
 * follows them, in any case Express would route (`/API/Invitations/<token>/accept` too), so
 * `/api/invitations/<token>/accept` is logged as `/api/invitations/{token}/accept`. Any other
 * path is written as it is.
 */
export function secretPathRedactor(templates: readonly string[]): (path: string) => string {
  const rules = [...new Set(templates)].map((template) => {
    const parts = template.split(/(\{[^}]+\})/);
    const source = parts.map((part, i) => (i % 2 === 1 ? '[^/]*' : escapeRegExp(part))).join('');
    return { pattern: new RegExp(`^${source}(?=/|$)`, 'i'), template };
  });
  return (path) => {
    for (const { pattern, template } of rules) {
      const match = pattern.exec(path);
      if (match) return `${template}${path.slice(match[0].length)}`;
    }
    return path;
  };
}

/** The path as the access log writes it: the API's secret paths and the web app's, by their templates. */
export const loggedPath = (spec: OpenApiDocument): ((path: string) => string) =>
  secretPathRedactor([...secretPathTemplates(spec), ...WEB_SECRET_ROUTES]);
