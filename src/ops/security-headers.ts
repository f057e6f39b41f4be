import type { Express, Response } from 'express';

/**
 * The policy of every HTML page the service answers (the admin app, /docs, the small status
 * pages): scripts, styles, fonts and data only from this origin (no CDN), inline styles allowed
 * because React component libraries and Redoc inject them, never framed by another site.
 * `worker-src blob:` is Redoc's search worker.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HTML_HEADERS: ReadonlyArray<[string, string]> = [
  ['Content-Security-Policy', CONTENT_SECURITY_POLICY],
  ['X-Frame-Options', 'DENY'],
  // A login link carries its token in the query string: never hand the URL on to another site.
  ['Referrer-Policy', 'no-referrer'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
];

/**
 * Security headers: `X-Content-Type-Options: nosniff` on every answer, and the HTML policy
 * above on every answer whose type is HTML, whichever route made it. They are decided when the
 * headers are written, since only then is the content type known, by the app's response
 * prototype (Express's `app.response`): installed once, it costs a request no allocation, where
 * wrapping each response's `writeHead` cost a closure and an own property per request.
 */
export function installSecurityHeaders(app: Express): void {
  const response = app.response as Response;
  const writeHead = response.writeHead as (...args: unknown[]) => Response;
  response.writeHead = function (this: Response, ...args: unknown[]) {
    this.setHeader('X-Content-Type-Options', 'nosniff');
    if (/^text\/html\b/i.test(String(this.getHeader('Content-Type') ?? ''))) {
      for (const [name, value] of HTML_HEADERS) this.setHeader(name, value);
    }
    return writeHead.apply(this, args);
  } as Response['writeHead'];
}
