import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Router } from 'express';
import { sendPage } from './security-headers.js';

/** Redoc's self-contained browser bundle, served from the npm package (no CDN). */
const REDOC_BUNDLE = path.join(
  path.dirname(createRequire(import.meta.url).resolve('redoc/package.json')),
  'bundles',
  'redoc.standalone.js',
);

/**
 * The page: Redoc's bundle initializes every `<redoc spec-url>` element itself, so the page
 * needs no inline script and the strict Content-Security-Policy holds.
 */
const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Org Admin Service API</title>
<style>body{margin:0}</style>
</head><body>
<redoc spec-url="/openapi.yaml" hide-download-button="false"></redoc>
<script src="/docs/redoc.standalone.js"></script>
</body></html>
`;

/** `/docs`: the contract served at `/openapi.yaml`, rendered by Redoc. */
export function docsRoutes(): Router {
  const router = express.Router();
  router.get('/docs', (_req, res) => {
    res.set('Cache-Control', 'no-cache');
    sendPage(res, 200, DOCS_PAGE);
  });
  router.get('/docs/redoc.standalone.js', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=86400').type('application/javascript').sendFile(REDOC_BUNDLE);
  });
  return router;
}
