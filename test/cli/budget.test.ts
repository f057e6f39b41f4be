import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okBody } from '../support/assertions.js';
import { cliEnv, runHub } from '../support/hub-cli.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { runLine, writeJsonl } from '../support/usage-runs.js';

/** `hub budget list <org>` as a subprocess on the test hub's database. */

let hub: TestHub;
let org: OrgFixture;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'budget-cli-'));

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'budgeted');
});
afterAll(async () => {
  await hub?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('hub budget list', () => {
  it('prints each budget with its status', async () => {
    const env = cliEnv(hub.database.dataDir, hub.database.databaseUrl);
    expect((await runHub(['budget', 'list', 'budgeted'], env)).stdout).toBe('no budgets in budgeted\n');
    const project = await okBody(org.call('owner', 'createProject', { body: { name: 'P' } }), 201);
    const at = new Date().toISOString();
    const runs = [1, 2, 3].map((i) => runLine(project.id, 's1', at, { costUsd: i === 3 ? null : 3 }));
    await hub.services.usage.ingest(org.id, writeJsonl(tmp, 'runs.jsonl', runs));
    const body = {
      name: 'Team spend',
      scope: { type: 'organization' },
      metric: 'costUsd',
      amount: 10,
      period: 'month',
    };
    await okBody(org.call('owner', 'createBudget', { body: body as never }), 201);
    const result = await runHub(['budget', 'list', 'budgeted'], env);
    expect(result.code, result.stderr).toBe(0);
    const line = /^Team spend {2}organization {2}6 of 10 USD per month {2}60 % · warning {2}since \S+ {2}/;
    expect(result.stdout).toMatch(line);
    expect(result.stdout).toMatch(/ {2}\(1 runs without cost\)\n$/);
  });

  it('refuses an unknown organization, and a data directory without a database, creating none', async () => {
    const env = cliEnv(hub.database.dataDir, hub.database.databaseUrl);
    const unknown = await runHub(['budget', 'list', 'nobody'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no organization "nobody"/);
    const empty = fs.mkdtempSync(path.join(tmp, 'empty-'));
    const missing = await runHub(['budget', 'list', 'budgeted'], cliEnv(empty, undefined));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`data directory ${empty}`);
    expect(fs.readdirSync(empty)).toEqual([]);
  });
});
