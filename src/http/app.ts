import express, { type Express } from 'express';
import type { Authorizer } from '../auth/authorize.js';
import type { CapacityService } from '../capacity/service.js';
import type { Clock } from '../config/clock.js';
import type { Config } from '../config/config.js';
import type { Db } from '../db/connect.js';
import type { Logger } from '../log/logger.js';
import { csrfGuard } from '../auth/csrf.js';
import { errorMiddleware, notFoundHandler } from '../errors/error-middleware.js';
import type { LogOutput } from '../log/log-output.js';
import { addApiRoutes } from './api-router.js';
import { loadOpenApiDocument } from './openapi-document.js';
import type { OperationTable } from './operation-table.js';
import { anonymousLimits, limitAnonymousRequests } from './pipeline/address-limit.js';
import { authenticate } from './pipeline/authenticate.js';
import { authenticateRuntime } from './pipeline/runtime-credential.js';
import type { RuntimeCredentialService } from '../runtime/credential-service.js';
import { limitBodySize } from './pipeline/body-size.js';
import { enforceOrgRole } from './pipeline/org-role.js';
import { enforceTokenScope } from './pipeline/token-scope.js';
import { parseJsonBody } from './pipeline/parse-body.js';
import { checkParameterText } from './pipeline/parameter-text.js';
import { guardProject } from './pipeline/project-guard.js';
import { limitRequestRate } from './pipeline/rate-limit.js';
import { resolveOrganization } from './pipeline/resolve-organization.js';
import { refuseWritesWhileDeleting } from './pipeline/read-only-organization.js';
import { contractValidation } from './pipeline/validate-contract.js';
import { parseQueryWithoutEmptyValues } from './query-parser.js';
import { requestLog } from './request-log.js';
import { loggedPath } from './secret-paths.js';
import { webAppRoutes } from './web-app.js';
import { operationsEndpoints } from '../ops/endpoints.js';
import { createMetrics, type WebhookQueueView } from '../ops/metrics.js';
import type { InstanceState } from '../ops/readiness.js';
import { noSniff } from '../ops/security-headers.js';

export interface AppOptions {
  /** Adjust the operation table before routes are mounted (tests of the router factory itself). */
  adjustOperations?: (table: OperationTable) => OperationTable;
  /** The built admin app to serve at `/` (tests point it at a fixture). */
  webDistDir?: string;
  /** Set `draining` when shutdown begins: /readyz then answers 503. */
  instance?: InstanceState;
  /** The log's output, whose dropped lines `/metrics` counts (`hub serve`'s stdout). */
  logOutput?: Pick<LogOutput, 'dropped'>;
}

/** What the HTTP application is made from: the composition root's services (src/app/) provide it. */
export interface AppDependencies {
  config: Config;
  logger: Logger;
  db: Db;
  /** The database's readers (Database.readers), whose pool `/metrics` counts beside the writer's. */
  readers: Db;
  clock: Clock;
  authorizer: Authorizer;
  capacity: CapacityService;
  /** Every operation's rule and handler. */
  operations: OperationTable;
  /** The platform runtime credentials the `platformRuntime` operations authenticate. */
  runtimeCredentials: RuntimeCredentialService;
  /** The webhook dispatcher, whose attempts and queue `/metrics` shows. */
  webhookDispatcher?: WebhookQueueView;
}

/**
 * The HTTP application, top to bottom in the order a request meets it (docs/decisions.md,
 * "Request pipeline"): the first stage that refuses a request answers it, and one error renderer
 * turns every refusal into `{error: {code, message}}`.
 */
export function createApp(services: AppDependencies, options: AppOptions = {}): Express {
  const { config, logger, db, readers, authorizer, capacity } = services;
  const spec = loadOpenApiDocument();
  const validateRequest = contractValidation(spec);
  const app = express();
  app.disable('x-powered-by');
  // Responses are per-user and small; hashing each body for an ETag costs more than it saves.
  app.set('etag', false);
  app.set('query parser', parseQueryWithoutEmptyValues);
  // req.ip, the client address of every per-address limit: the socket's, or behind the proxies
  // HUB_TRUSTED_PROXIES names, the right-most X-Forwarded-For hop that is not one of them.
  app.set('trust proxy', config.trustedProxies.length ? config.trustedProxies : false);

  app.use(noSniff); // on everything; the page policy is set by the routes that answer HTML
  const metrics = createMetrics({
    db,
    readers,
    spec,
    logOutput: options.logOutput,
    webhooks: services.webhookDispatcher,
  });
  app.use(metrics.recordRequests);
  app.use(requestLog(logger, loggedPath(spec)));
  // /healthz /readyz /metrics /docs
  app.use(operationsEndpoints({ db, metrics, state: options.instance ?? { draining: false } }));
  app.use(csrfGuard(config.baseUrl));
  const anonymous = anonymousLimits(config, services.clock);
  addApiRoutes(app, {
    spec,
    operations: (options.adjustOperations ?? ((table) => table))(services.operations),
    pipeline: [
      limitAnonymousRequests(anonymous), // 429 per client address: sign-ins, failed login links
      authenticate(authorizer, anonymous.failures), // 401; 429 per client address past its refused tokens
      authenticateRuntime(services.runtimeCredentials, anonymous.failures), // 401, 403 runtime_credential_required
      checkParameterText, // 400 U+0000 or a lone surrogate in the path or query, a query that does not decode
      resolveOrganization(authorizer), // 404 org_not_found; 308 from a slug given up by a rename
      refuseWritesWhileDeleting, // 409 organization_deleting on every write but the restore
      limitRequestRate(capacity), // 429, valid request or not
      limitBodySize(capacity, config.bodyLimitBytes), // 413 from Content-Length
      parseJsonBody(config.bodyLimitBytes), // 400 malformed JSON, 413 while streaming
      enforceTokenScope(authorizer), // 403 token_scope_required
      enforceOrgRole(authorizer), // 403 org_admin_required
      validateRequest, // 400 validation_failed
      guardProject(authorizer), // 404 project_not_found, 403 project_access_denied / project_manage_required
    ],
    logger,
    clock: services.clock,
  });
  app.use(webAppRoutes(options.webDistDir));
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger));
  return app;
}
