/**
 * Our service as production runs it: the whole createApp stack (request log, CSRF guard, body and
 * cookie parsing, express-openapi-validator on requests only, the authorizer with its caches,
 * the database), info-level logging on, on a fresh database seeded with one organization of 100
 * members, 12 active projects in folders and a few teams (bench/lib/seed-structure.ts), that has
 * made one change through the services in an audit scope, as the API makes it, before the load.
 *
 * The requests it hands the load generator are all database reads (the session and membership
 * caches answer who is calling, not what is asked): the member list and the explorer as the
 * owner, a project's detail as a MEMBER who reaches it through a team grant only, and admission
 * (a POST) asked by the owner about a run of that MEMBER in that project, under a policy of the
 * organization.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createServices } from '../../src/app/services.js';
import { CONSOLE_ACTOR, withAuditScope } from '../../src/audit/scope.js';
import { systemClock } from '../../src/config/clock.js';
import { loadConfig } from '../../src/config/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrateLatest } from '../../src/db/migrate.js';
import { createApp } from '../../src/http/app.js';
import { appServerOptions } from '../../src/http/platform/server-objects.js';
import { createLogger } from '../../src/log/logger.js';
import { login, waitForIdlePool } from '../lib/in-process.js';
import { LOAD_SIZE, seedStructure } from '../lib/seed-structure.js';
import { inheritedEnvironment } from '../lib/env.js';
import { runBenchServer } from '../lib/server-child.js';

await runBenchServer(async () => {
  // DATABASE_URL selects PostgreSQL exactly as in production; otherwise SQLite in a temp dir.
  const env = loadConfig(inheritedEnvironment());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-bench-'));
  // The per-organization request rate is still counted on every request, under a ceiling no load
  // here reaches: a 429 would measure the refusal, not the read.
  const config = { ...env, dataDir, ceilings: { ...env.ceilings, requestRate: 1e9 } };
  const onPostgres = config.databaseUrl !== undefined;
  const database = openDatabase(config);
  const db = database.writer;
  const release = async (): Promise<void> => {
    await database.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await migrateLatest(db);
    // Info level on, to stdout through the logger's own destination, as in production; the bench
    // starts this child with stdout on /dev/null.
    const logger = createLogger({ level: 'info' });
    const services = createServices({ config, db, readers: database.readers, clock: systemClock, logger });
    // A shared PostgreSQL database may hold an earlier run's org: the tag keeps slugs apart.
    const seed = await seedStructure(db, LOAD_SIZE, randomBytes(4).toString('hex'));
    const owner = await login(services, seed.owner.imOpenId);
    const member = await login(services, seed.member.imOpenId);
    // A running server has served changes: one is made here as the API makes it, in an audit
    // scope, so whatever a change leaves behind (an enabled AsyncLocalStorage, say) is measured.
    await withAuditScope({ actor: CONSOLE_ACTOR, at: new Date(), action: 'createTeam', requestId: null }, () =>
      services.teams.create(seed.org.id, { slug: 'bench-change', name: 'Bench change' }),
    );
    // A policy of the organization naming every model, so admission resolves a narrowing policy.
    await services.policies.create(seed.org.id, {
      scope: { type: 'organization' },
      allow: { models: config.models.map((m) => m.id) },
    });
    const org = `/api/org/${seed.org.slug}`;
    const headers = (cookie: string) => ({ accept: 'application/json', cookie });
    // The server is made as `hub serve` makes it (src/cli/serve.ts).
    const app = createApp(services);

    return {
      handler: app,
      serverOptions: appServerOptions(app),
      targets: [
        {
          name: 'members',
          path: `${org}/members`,
          headers: headers(owner),
          expect: { listKey: 'members', items: seed.expected.activeMembers },
        },
        {
          name: 'explorer',
          path: `${org}/explorer`,
          headers: headers(owner),
          expect: { listKey: 'projects', items: seed.expected.activeProjects },
        },
        {
          name: 'admission',
          method: 'POST' as const,
          path: `${org}/admission`,
          headers: { ...headers(owner), 'content-type': 'application/json' },
          body: JSON.stringify({
            projectId: seed.targetProject.id,
            initiatedBy: { type: 'member', imOpenId: seed.member.imOpenId },
            model: config.models[0]!.id,
          }),
          expect: { decision: 'allow' },
        },
        {
          name: 'project',
          path: `${org}/projects/${seed.targetProject.id}`,
          headers: headers(member),
          expect: { id: seed.targetProject.id },
        },
      ],
      async close() {
        await waitForIdlePool(db);
        try {
          if (onPostgres) await db('organizations').where({ id: seed.org.id }).delete();
        } finally {
          await release();
        }
      },
    };
  } catch (err) {
    await release();
    throw err;
  }
});
