import express, { type Express } from 'express';
import { csrfGuard } from '../auth/csrf.js';
import { noteBodyBytes } from '../capacity/request-body.js';
import { ping } from '../db/connect.js';
import type { Services } from '../app/services.js';
import { errorMiddleware, notFoundHandler } from '../errors/error-middleware.js';
import { createApiRouter } from './api-router.js';
import { loadOpenApiDocument } from './openapi-document.js';
import { buildOperationTable } from './operations.js';
import type { OperationTable } from './operation-table.js';
import { requestLog } from './request-log.js';
import { webAppRoutes } from './web-app.js';

export interface AppOptions {
  /** Validate every response against openapi.yaml (tests). */
  validateResponses?: boolean;
  /** Adjust the operation table before routes are mounted (tests of the router factory itself). */
  adjustOperations?: (table: OperationTable) => OperationTable;
  /** The built admin app to serve at `/` (tests point it at a fixture). */
  webDistDir?: string;
}

/**
 * The HTTP application. Order matters: request id and logging first, then the health check,
 * the CSRF guard (before any body is parsed), JSON parsing, the contract-driven
 * router, and one error renderer for everything.
 */
export function createApp(services: Services, options: AppOptions = {}): Express {
  const { config, logger, db } = services;
  const app = express();
  app.disable('x-powered-by');
  // Responses are per-user and small; hashing each body for an ETag costs more than it saves.
  app.set('etag', false);
  app.use(requestLog(logger));

  app.get('/healthz', async (_req, res) => {
    await ping(db);
    res.json({ status: 'ok' });
  });

  app.use(csrfGuard(config.baseUrl));
  // The limit is the platform's; an organization's lower requestBodySize is checked against the
  // bytes noted here once the authorizer knows the organization.
  const parseJson = express.json({ limit: config.bodyLimitBytes, verify: noteBodyBytes });
  // GET and HEAD carry no body here; skipping the parser spares every read a few checks.
  app.use((req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? next() : parseJson(req, res, next)));
  app.use(
    createApiRouter({
      spec: loadOpenApiDocument(),
      operations: (options.adjustOperations ?? ((table) => table))(buildOperationTable(services)),
      authorizer: services.authorizer,
      logger,
      validateResponses: options.validateResponses ?? false,
    }),
  );
  app.use(webAppRoutes(options.webDistDir));
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger));
  return app;
}
