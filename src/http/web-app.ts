import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import express, { type Router } from 'express';
import { sendPage, setPagePolicy } from '../ops/security-headers.js';
import { page } from './html.js';
import { OPENAPI_PATH } from './openapi-document.js';

/** Where `npm run build -w web` (run by the root package's `prepare`) writes the admin app. */
export const WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/**
 * Paths the admin app never answers: the API, the login flow, the contract and the operations
 * endpoints keep their own 404s, and so does the built assets folder: a typo there is never masked by
 * the app's HTML.
 */
const RESERVED = /^\/(api|auth|assets|docs|metrics|healthz|readyz)(\/|$)/;
/** A last segment with a dot names a file; a missing file is a 404, not the app. */
const LOOKS_LIKE_FILE = /\/[^/]*\.[^/]*$/;

/**
 * What a browser sees outside the API: the built admin app at `/` with a fallback to its
 * `index.html` for the app's own routes (deep links survive a reload), and `/openapi.yaml`.
 */
export function webAppRoutes(distDir: string = WEB_DIST_DIR): Router {
  const router = express.Router();
  router.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').sendFile(OPENAPI_PATH);
  });
  const indexHtml = path.join(distDir, 'index.html');
  // Hashed asset names change with every build, so they may be cached for good.
  router.use(
    '/assets',
    express.static(path.join(distDir, 'assets'), { immutable: true, maxAge: '1y', fallthrough: true }),
  );
  router.use(
    express.static(distDir, {
      index: false,
      fallthrough: true,
      setHeaders: (res, file) => {
        if (file.endsWith('.html')) setPagePolicy(res);
      },
    }),
  );
  router.get(/.*/, (req, res, next) => {
    if (RESERVED.test(req.path) || LOOKS_LIKE_FILE.test(req.path) || !req.accepts('html')) return next();
    // index.html names the hashed assets of the current build: never cache it.
    res.set('Cache-Control', 'no-cache');
    if (existsSync(indexHtml)) {
      setPagePolicy(res);
      return res.sendFile(indexHtml);
    }
    sendPage(
      res,
      503,
      page(
        'Org Admin Service',
        '<p>The admin app is not built. Run <code>npm run build -w web</code>, then reload.</p>',
      ),
    );
  });
  return router;
}
