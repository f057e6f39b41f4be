import { Authorizer } from '../auth/authorize.js';
import { SessionStore } from '../auth/session-store.js';
import { SessionService } from '../auth/sessions.js';
import type { Config } from '../config/config.js';
import type { Clock } from '../config/clock.js';
import type { Db } from '../db/connect.js';
import type { Logger } from '../log/logger.js';
import { OrgAccessResolver } from '../orgs/access.js';
import { OrganizationService } from '../orgs/service.js';
import { OrganizationStore } from '../orgs/store.js';
import { UserStore } from '../users/store.js';

/** How long a cached session or membership may stand for a change made by another process. */
const DEFAULT_ACCESS_CACHE_TTL_MS = 2_000;

export interface Services {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
  users: UserStore;
  sessions: SessionService;
  orgAccess: OrgAccessResolver;
  organizations: OrganizationService;
  authorizer: Authorizer;
}

/** Wires stores and services once per process (or per test). */
export function createServices(deps: {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
  accessCacheTtlMs?: number;
}): Services {
  const { config, db, clock, logger } = deps;
  const ttl = deps.accessCacheTtlMs ?? DEFAULT_ACCESS_CACHE_TTL_MS;
  const users = new UserStore(db);
  const orgStore = new OrganizationStore(db);
  const sessions = new SessionService(new SessionStore(db), users, clock, ttl);
  const orgAccess = new OrgAccessResolver(orgStore, clock, ttl);
  const organizations = new OrganizationService(db, orgStore, users, orgAccess, clock);
  const authorizer = new Authorizer(sessions, orgAccess);
  return { config, db, clock, logger, users, sessions, orgAccess, organizations, authorizer };
}
