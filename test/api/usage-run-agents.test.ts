import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { runLine, writeJsonl } from '../support/usage-runs.js';

/**
 * Each run counts under its own provider, role and model: one session whose first run is a cheap
 * claude-haiku-4-5 run by a coder and whose second is an expensive gpt-5 run by a reviewer answers
 * each model, provider and role with its own run and cost, from the rollup levels (whole days) and
 * from the raw runs (a window inside a day) alike. The session keeps its first run's as its summary.
 */

let hub: TestHub;
let org: OrgFixture;
let projectId = '';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'run-agents-'));

const HAIKU = { provider: 'anthropic', roleId: 'coder', model: 'claude-haiku-4-5', costUsd: 0.01, inputTokens: 40 };
const GPT = { provider: 'openai', roleId: 'reviewer', model: 'gpt-5', costUsd: 5, inputTokens: 900 };

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'acme');
  projectId = (await okBody(org.call('owner', 'createProject', { body: { name: 'alpha' } }), 201)).id;
  const lines = [
    runLine(projectId, 's-1', '2026-11-10T10:00:00Z', HAIKU),
    runLine(projectId, 's-1', '2026-11-10T11:00:00Z', GPT),
  ];
  await hub.services.usage.ingest(org.id, writeJsonl(tmp, 'runs.jsonl', lines));
});
afterAll(async () => {
  await hub.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Whole UTC days (the rollup levels answer), and a window inside one day (the raw runs answer). */
const WINDOWS = {
  'whole days': { from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z' },
  'inside a day': { from: '2026-11-10T09:00:00Z', to: '2026-11-10T12:00:00Z' },
};

/** Each group of the series over a window, as [key, runs, input tokens, cost], in key order. */
async function groups(window: { from: string; to: string }, groupBy: 'model' | 'provider' | 'role') {
  const series = await okBody(org.call('admin', 'getUsageSeries', { query: { ...window, bucket: 'month', groupBy } }));
  return series.buckets
    .flatMap((b) => b.groups.map((g) => [g.key, g.runCount, g.inputTokens, g.costUsd]))
    .sort((x, y) => String(x[0]).localeCompare(String(y[0])));
}

describe.each(Object.entries(WINDOWS))('the usage series over %s', (_, window) => {
  it('groupBy=model answers each model with its own run and cost', async () => {
    expect(await groups(window, 'model')).toEqual([
      ['claude-haiku-4-5', 1, 40, 0.01],
      ['gpt-5', 1, 900, 5],
    ]);
  });

  it('groupBy=provider answers each provider with its own run and cost', async () => {
    expect(await groups(window, 'provider')).toEqual([
      ['anthropic', 1, 40, 0.01],
      ['openai', 1, 900, 5],
    ]);
  });

  it('groupBy=role answers each role with its own run and cost', async () => {
    expect(await groups(window, 'role')).toEqual([
      ['coder', 1, 40, 0.01],
      ['reviewer', 1, 900, 5],
    ]);
  });
});

describe('the session', () => {
  it('keeps its first run’s provider, role and model as its summary, and counts both runs', async () => {
    const { sessions } = await okBody(org.call('owner', 'listProjectSessions', { path: { projectId } }));
    expect(sessions).toEqual([
      expect.objectContaining({ id: 's-1', provider: 'anthropic', roleId: 'coder', model: 'claude-haiku-4-5' }),
    ]);
    expect(sessions[0]!.runCount).toBe(2);
  });
});
