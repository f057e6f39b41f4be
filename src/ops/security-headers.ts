import type { ServerResponse } from 'node:http';
import type { RequestHandler, Response } from 'express';

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

/** `X-Content-Type-Options: nosniff` on every answer of the app, whichever route makes it: mount it first. */
export const noSniff: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
};

/**
 * The HTML policy above, on an answer that is a page. Every route that answers HTML sets it: the
 * admin app's files and fallback (src/http/web-app.ts), /docs, and the small status pages
 * (`sendPage`).
 */
export function setPagePolicy(res: Pick<ServerResponse, 'setHeader'>): void {
  for (const [name, value] of HTML_HEADERS) res.setHeader(name, value);
}

/** Answers a page (src/http/html.ts `page`) with its status and the HTML policy. */
export function sendPage(res: Response, status: number, html: string): void {
  setPagePolicy(res);
  res.status(status).type('html').send(html);
}
