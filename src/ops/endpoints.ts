import express, { type RequestHandler } from 'express';
import type { Db } from '../db/connect.js';
import { docsRoutes } from './docs.js';
import type { Metrics } from './metrics.js';
import { isOperationsPath } from './paths.js';
import { checkReadiness, type InstanceState } from './readiness.js';

/**
 * The operations endpoints (docs/decisions.md): outside the API and its pipeline, no session needed.
 *
 * - `/healthz`: liveness. The process answers, so 200; it never touches the database, so a
 *   database outage does not make an orchestrator restart every instance.
 * - `/readyz`: 200 when the database answers and the schema is current, else 503 with the
 *   reason; 503 too while the instance drains for shutdown, so a load balancer stops sending.
 * - `/metrics`: Prometheus text.
 * - `/docs`: the contract rendered by Redoc.
 */
export function operationsEndpoints(deps: { db: Db; metrics: Metrics; state: InstanceState }): RequestHandler {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const readiness = await checkReadiness(deps.db, deps.state);
    res.set('Cache-Control', 'no-store');
    if (readiness.ready) res.json({ status: 'ready' });
    else res.status(503).json({ status: 'unavailable', reason: readiness.reason });
  });
  router.get('/metrics', async (_req, res) => {
    const text = await deps.metrics.registry.metrics();
    res.set('Cache-Control', 'no-store').type(deps.metrics.registry.contentType).send(text);
  });
  router.use(docsRoutes());
  // Only requests for these paths enter the router: one that leaves an Express router unanswered
  // goes on in a later turn of the event loop (setImmediate), which every API request would pay.
  return (req, res, next) => (isOperationsPath(req.path) ? router(req, res, next) : next());
}
