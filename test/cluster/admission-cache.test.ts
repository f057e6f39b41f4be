import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../src/app/services.js';
import { ManualClock } from '../../src/config/clock.js';
import { loadConfig } from '../../src/config/config.js';
import { PostgresInvalidations } from '../../src/db/notifications.js';
import { createLogger } from '../../src/log/logger.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

/**
 * Admission's cache of an organization's policies across instances: two service sets on one
 * PostgreSQL database, each with its own cache and its own LISTEN connection, as two `hub serve`
 * processes have. A policy set or changed through one is in the other's very next answer, with a
 * cache TTL far longer than the test, so only the notification can explain it. On SQLite (one
 * process) the suite is skipped; CI runs it with TEST_DATABASE_URL set.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!onPostgres)('admission answers agree across instances on PostgreSQL', () => {
  let database: TestDatabase;
  const instances: Array<{ services: Services; invalidations: PostgresInvalidations }> = [];
  let organizationId: string;

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: true });
    const clock = new ManualClock(new Date());
    const logger = createLogger({ level: 'warn', destination: new Writable({ write: (_c, _e, done) => done() }) });
    const config = { ...loadConfig({}), dataDir: database.dataDir };
    for (let i = 0; i < 2; i++) {
      const invalidations = new PostgresInvalidations(database.db, logger);
      await invalidations.start();
      const services = createServices({
        config,
        db: database.db,
        clock,
        logger,
        accessCacheTtlMs: 3_600_000,
        sharedDatabase: { invalidations },
      });
      instances.push({ services, invalidations });
    }
    const org = await instances[0]!.services.organizations.create({
      slug: 'cached',
      name: 'Cached',
      ownerImOpenId: 'ou_cached_owner',
      ownerDisplayName: 'Owner',
    });
    organizationId = org.id;
  });
  afterAll(async () => {
    for (const { invalidations } of instances) await invalidations.close();
    await database?.drop();
  });

  const modelRefusals = async (instance: number) =>
    (
      await instances[instance]!.services.admission.admit(organizationId, {
        projectId: 'any',
        initiatedBy: { type: 'member', imOpenId: 'ou_cached_owner' },
        model: 'gpt-5',
      })
    ).reasons.filter((r) => r.code === 'model_not_allowed');

  it('a policy flipped on one instance holds in the next answer of the other', async () => {
    // Both instances have read (and cached) the organization's policies: none.
    expect(await modelRefusals(0)).toEqual([]);
    expect(await modelRefusals(1)).toEqual([]);
    const created = await instances[0]!.services.policies.create(organizationId, {
      scope: { type: 'organization' },
      allow: { models: ['gpt-5-mini'] },
    });
    expect((await modelRefusals(1)).map((r) => r.source.type)).toEqual(['organization']);
    await instances[1]!.services.policies.update(organizationId, created.id, { allow: { models: ['gpt-5'] } });
    expect(await modelRefusals(0)).toEqual([]);
    await instances[0]!.services.policies.delete(organizationId, created.id);
    expect(await modelRefusals(1)).toEqual([]);
  });

  it('answers as an uncached resolve does', async () => {
    await instances[0]!.services.policies.create(organizationId, {
      scope: { type: 'organization' },
      allow: { models: [] },
    });
    const cached = await modelRefusals(1);
    const fresh = createServices({
      config: { ...loadConfig({}), dataDir: database.dataDir },
      db: database.db,
      clock: new ManualClock(new Date()),
      logger: createLogger({ level: 'warn', destination: new Writable({ write: (_c, _e, done) => done() }) }),
      accessCacheTtlMs: 0,
    });
    const uncached = (
      await fresh.admission.admit(organizationId, {
        projectId: 'any',
        initiatedBy: { type: 'member', imOpenId: 'ou_cached_owner' },
        model: 'gpt-5',
      })
    ).reasons.filter((r) => r.code === 'model_not_allowed');
    expect(cached).toEqual(uncached);
    expect(cached).toHaveLength(1);
  });
});
