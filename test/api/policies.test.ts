import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { DEFAULT_MODELS } from '../../src/config/models.js';
import { expectError, okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { runLine, writeJsonl } from '../support/usage-runs.js';

/**
 * Usage policies and admission over HTTP: the policies' life, every check admission makes with
 * the reason it names, a blocking budget denying the run after the one that spent it, and — over
 * random policies, teams and grants — the model picker and admission agreeing with each other and
 * with the effective rule, model by model, capability by capability, tool by tool.
 */

let hub: TestHub;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'policies-'));
const MODELS = DEFAULT_MODELS.map((m) => m.id);

beforeAll(async () => {
  hub = await TestHub.start({ config: { ceilings: loadConfig({ HUB_CEILING_REQUEST_RATE: '1000000' }).ceilings } });
});
afterAll(async () => {
  await hub?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

type Allow = { models?: string[]; providers?: string[]; capabilities?: Array<{ id: string; tools?: string[] }> };

/** An organization with a project the member reads through a team, and the member as a run line names them. */
async function granted(org: OrgFixture, folderId?: string) {
  const project = await okBody(org.call('owner', 'createProject', { body: { name: unique('P'), folderId } }), 201);
  const team = await okBody(
    org.call('owner', 'createTeam', { body: { slug: unique('readers'), name: 'Readers' } }),
    201,
  );
  await okBody(org.call('owner', 'addTeamMember', { path: { teamId: team.id }, body: { userId: org.userIds.member } }));
  await okBody(
    org.call('owner', 'putProjectTeamAccess', {
      path: { projectId: project.id },
      body: { teamId: team.id, role: 'READ' },
    }),
  );
  return project.id;
}
const memberOf = (org: OrgFixture) => ({ type: 'member' as const, imOpenId: `${org.slug}-member` });
const policy = (
  org: OrgFixture,
  scope: { type: 'organization' | 'folder' | 'project' | 'team'; id?: string },
  allow: Allow,
) => okBody(org.call('owner', 'createPolicy', { body: { scope, allow } }), 201);
const admit = (org: OrgFixture, body: Record<string, unknown>) =>
  okBody(org.call('owner', 'admitRun', { body: body as never }));

describe('usage policies', () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await seedOrg(hub, unique('pol'));
  });

  it('are created, listed, read, changed and removed by org admins, one per scope', async () => {
    const created = await policy(org, { type: 'organization' }, { models: ['gpt-5'] });
    expect(created).toMatchObject({ scope: { type: 'organization' }, allow: { models: ['gpt-5'] } });
    expectError(
      await org.call('admin', 'createPolicy', { body: { scope: { type: 'organization' }, allow: {} } }),
      409,
      'policy_exists',
    );
    const team = await okBody(org.call('owner', 'createTeam', { body: { slug: unique('t'), name: 'T' } }), 201);
    const onTeam = await policy(org, { type: 'team', id: team.id }, { capabilities: [] });
    const listed = await okBody(org.call('admin', 'listPolicies'));
    expect(listed.policies.map((p) => p.id)).toEqual([created.id, onTeam.id]);
    expect(await okBody(org.call('admin', 'getPolicy', { path: { policyId: onTeam.id } }))).toEqual(onTeam);
    const changed = await okBody(
      org.call('admin', 'updatePolicy', { path: { policyId: created.id }, body: { allow: { providers: [] } } }),
    );
    expect(changed.allow).toEqual({ providers: [] });
    const events = await hub.services
      .db('audit_events')
      .where({ organization_id: org.id, target_type: 'usage_policy' });
    expect(events.map((e) => e.action).sort()).toEqual(['createPolicy', 'createPolicy', 'updatePolicy']);
    expect((await org.call('admin', 'deletePolicy', { path: { policyId: onTeam.id } })).status).toBe(204);
    expectError(await org.call('admin', 'getPolicy', { path: { policyId: onTeam.id } }), 404, 'policy_not_found');
    expectError(await org.call('member', 'listPolicies'), 403, 'org_admin_required');
  });

  it('refuse a scope the organization does not have, and a model not in the picker, changing nothing', async () => {
    const before = await hub.services.db('usage_policies').where({ organization_id: org.id }).count({ n: '*' });
    for (const [scope, code] of [
      [{ type: 'folder', id: 'no-such-folder' }, 'folder_not_found'],
      [{ type: 'project', id: 'no-such-project' }, 'project_not_found'],
      [{ type: 'team', id: 'no-such-team' }, 'team_not_found'],
    ] as const)
      expectError(await org.call('owner', 'createPolicy', { body: { scope, allow: {} } }), 404, code);
    const project = await okBody(org.call('owner', 'createProject', { body: { name: unique('P') } }), 201);
    expectError(
      await org.call('owner', 'createPolicy', {
        body: { scope: { type: 'project', id: project.id }, allow: { models: ['nope'] } },
      }),
      422,
      'unknown_model',
    );
    expectError(
      await org.call('owner', 'createPolicy', { body: { scope: { type: 'folder' }, allow: {} } }),
      400,
      'validation_failed',
    );
    expectError(
      await org.call('owner', 'createPolicy', { body: { scope: { type: 'organization', id: 'x' }, allow: {} } }),
      400,
      'validation_failed',
    );
    const after = await hub.services.db('usage_policies').where({ organization_id: org.id }).count({ n: '*' });
    expect(after).toEqual(before);
  });
});

describe('admission', () => {
  let org: OrgFixture;
  let projectId: string;
  beforeAll(async () => {
    org = await seedOrg(hub, unique('adm'));
    projectId = await granted(org);
  });

  it('allows a run nothing refuses, with the effective run-time limits', async () => {
    const answer = await admit(org, { projectId, initiatedBy: memberOf(org), model: 'gpt-5' });
    expect(answer.decision).toBe('allow');
    expect(answer.reasons).toEqual([]);
    expect(Object.keys(answer.limits).sort()).toEqual([
      'agentConcurrency',
      'processCount',
      'processCpu',
      'processMemory',
      'runOutputSize',
      'runToolCalls',
      'runTurns',
      'runWallTime',
      'toolWallTime',
    ]);
    await okBody(org.call('owner', 'updateCapacityPolicy', { body: { limits: { runTurns: 7 } } }));
    expect((await admit(org, { projectId, initiatedBy: memberOf(org), model: 'gpt-5' })).limits.runTurns).toBe(7);
  });

  it('names the project, the initiator and the model it refuses', async () => {
    const codes = async (body: Record<string, unknown>) => (await admit(org, body)).reasons.map((r) => r.code);
    expect(await codes({ projectId: 'nope', initiatedBy: memberOf(org), model: 'gpt-5' })).toEqual([
      'project_access_denied',
    ]);
    expect(
      await codes({ projectId, initiatedBy: { type: 'member', imOpenId: 'ou_stranger' }, model: 'gpt-5' }),
    ).toEqual(['initiator_unknown']);
    // The admin holds no grant on the project: an org admin's oversight is no right to run in it.
    expect(
      await codes({ projectId, initiatedBy: { type: 'member', imOpenId: `${org.slug}-admin` }, model: 'gpt-5' }),
    ).toEqual(['project_access_denied']);
    expect(await codes({ projectId, initiatedBy: memberOf(org), model: 'no-model' })).toEqual(['model_unknown']);
    expect(await codes({ projectId, initiatedBy: { type: 'serviceAccount', id: 'nope' }, model: 'gpt-5' })).toEqual([
      'initiator_unknown',
    ]);
    const archived = await okBody(org.call('owner', 'createProject', { body: { name: unique('Old') } }), 201);
    await okBody(org.call('owner', 'archiveProject', { path: { projectId: archived.id } }));
    expect(
      await codes({
        projectId: archived.id,
        initiatedBy: { type: 'member', imOpenId: `${org.slug}-owner` },
        model: 'gpt-5',
      }),
    ).toEqual(['project_archived']);
    expectError(
      await org.call('owner', 'admitRun', {
        body: { projectId, initiatedBy: { type: 'member', id: 'x' }, model: 'gpt-5' } as never,
      }),
      400,
      'validation_failed',
    );
  });

  it('refuses a disabled role, an inactive provider or capability, and names the policy that narrows', async () => {
    const own = await granted(org);
    await okBody(org.call('owner', 'putAgentRole', { path: { roleId: 'off' }, body: { label: 'Off' } }));
    await okBody(org.call('owner', 'updateAgentRole', { path: { roleId: 'off' }, body: { disabled: true } }));
    await okBody(
      org.call('owner', 'putCapabilityConnection', {
        path: { capabilityId: 'search' },
        body: { label: 'Search', kind: 'http', endpointUrl: 'https://s.example.com' },
      }),
    );
    const base = { projectId: own, initiatedBy: memberOf(org), model: 'gpt-5' };
    const answer = await admit(org, { ...base, roleId: 'off', provider: 'anthropic', capabilities: [{ id: 'none' }] });
    expect(answer.decision).toBe('deny');
    expect(answer.reasons.map((r) => [r.code, r.source.type, r.source.id])).toEqual([
      ['role_disabled', 'role', 'off'],
      ['provider_unavailable', 'provider', 'anthropic'],
      ['capability_unavailable', 'capability', 'none'],
    ]);
    const search = await admit(org, { ...base, capabilities: [{ id: 'search', tools: ['query'] }] });
    expect(search.reasons.filter((r) => r.source.type === 'capability').map((r) => r.code)).not.toContain(
      'tool_not_allowed',
    );
    const set = await policy(
      org,
      { type: 'project', id: own },
      { models: ['gpt-5-mini'], capabilities: [{ id: 'search', tools: ['fetch'] }] },
    );
    const narrowed = await admit(org, { ...base, capabilities: [{ id: 'search', tools: ['query'] }] });
    const byPolicy = narrowed.reasons.filter((r) => r.source.type === 'project');
    expect(byPolicy.map((r) => [r.code, r.source.id])).toEqual([
      ['model_not_allowed', own],
      ['tool_not_allowed', own],
    ]);
    expect(byPolicy[0]!.message).toMatch(/usage policy of the project ".*" does not allow the model "gpt-5"/);
    await okBody(org.call('owner', 'deletePolicy', { path: { policyId: set.id } }));
  });

  it('answers the model picker from the same resolve, model by model, with the reasons', async () => {
    const folder = await okBody(org.call('owner', 'createFolder', { body: { name: unique('F') } }), 201);
    const inFolder = await granted(org, folder.id);
    await policy(org, { type: 'folder', id: folder.id }, { models: ['gpt-5', 'claude-opus-4-1'] });
    const picker = await okBody(
      org.call('owner', 'listAgentModels', { query: { projectId: inFolder, initiator: `member:${org.slug}-member` } }),
    );
    const allowed = picker.models.filter((m) => m.allowed).map((m) => m.id);
    expect(allowed.sort()).toEqual(['claude-opus-4-1', 'gpt-5']);
    const refused = picker.models.find((m) => m.id === 'gpt-5-mini')!;
    expect(refused.reasons).toEqual([
      expect.objectContaining({
        code: 'model_not_allowed',
        source: { type: 'folder', id: folder.id, label: folder.name },
      }),
    ]);
    const capabilities = await okBody(org.call('owner', 'listCapabilityConnections'));
    expect(capabilities.connections.every((c) => !('allowed' in c))).toBe(true);
    expectError(
      await org.call('owner', 'listCapabilityConnections', { query: { initiator: `member:${org.slug}-member` } }),
      400,
      'validation_failed',
    );
    const plain = await okBody(org.call('owner', 'listAgentModels'));
    expect(plain.models[0]).not.toHaveProperty('allowed');
    expectError(
      await org.call('owner', 'listAgentModels', { query: { projectId: inFolder } }),
      400,
      'validation_failed',
    );
    expectError(
      await org.call('owner', 'listAgentModels', { query: { projectId: inFolder, initiator: 'nobody:x' } }),
      400,
      'validation_failed',
    );
  });

  it('denies the next run once a blocking budget is spent; an alerting budget only alerts', async () => {
    const own = await granted(org);
    const at = hub.clock.now().toISOString();
    const budget = await okBody(
      org.call('owner', 'createBudget', {
        body: {
          name: 'Hard cap',
          scope: { type: 'project', id: own },
          metric: 'costUsd',
          amount: 1,
          period: 'month',
          enforcement: 'block',
        },
      }),
      201,
    );
    expect(budget.enforcement).toBe('block');
    const run = { projectId: own, initiatedBy: memberOf(org), model: 'gpt-5' };
    expect((await admit(org, run)).decision).toBe('allow');
    const file = writeJsonl(tmp, `${unique('runs')}.jsonl`, [
      runLine(own, 's1', at, { costUsd: 0.6, initiatedBy: memberOf(org) }),
      runLine(own, 's1', at, { costUsd: 0.6, initiatedBy: memberOf(org) }),
    ]);
    await hub.services.usage.ingest(org.id, file);
    const denied = await admit(org, run);
    expect(denied.decision).toBe('deny');
    expect(denied.reasons).toEqual([
      expect.objectContaining({
        code: 'budget_exceeded',
        source: { type: 'budget', id: budget.id, label: 'Hard cap' },
      }),
    ]);
    await okBody(org.call('owner', 'updateBudget', { path: { budgetId: budget.id }, body: { enforcement: 'alert' } }));
    expect((await admit(org, run)).decision).toBe('allow');
    const listed = (await okBody(org.call('owner', 'listBudgets'))).budgets.find((b) => b.id === budget.id)!;
    expect(listed).toMatchObject({ enforcement: 'alert', status: { state: 'exceeded' } });
  });

  it('a blocking allowance of each member stops only the member who spent it', async () => {
    const folder = await okBody(org.call('owner', 'createFolder', { body: { name: unique('Capped') } }), 201);
    const own = await granted(org, folder.id);
    const budget = await okBody(
      org.call('owner', 'createBudget', {
        body: {
          name: 'Each member’s cap',
          scope: { type: 'folder', id: folder.id },
          perMember: true,
          metric: 'costUsd',
          amount: 1,
          period: 'month',
          enforcement: 'block',
        },
      }),
      201,
    );
    const at = hub.clock.now().toISOString();
    await hub.services.usage.ingest(
      org.id,
      writeJsonl(tmp, `${unique('runs')}.jsonl`, [
        runLine(own, 's-cap', at, { costUsd: 1.2, initiatedBy: memberOf(org) }),
      ]),
    );
    const denied = await admit(org, { projectId: own, initiatedBy: memberOf(org), model: 'gpt-5' });
    expect(denied.reasons).toEqual([
      expect.objectContaining({ code: 'budget_exceeded', source: expect.objectContaining({ id: budget.id }) }),
    ]);
    // The owner made the project and holds its grant; their own allowance is untouched.
    const owner = { type: 'member' as const, imOpenId: `${org.slug}-owner` };
    expect((await admit(org, { projectId: own, initiatedBy: owner, model: 'gpt-5' })).decision).toBe('allow');
  });

  it('a blocking budget of a service account stops its runs and its tokens’ runs', async () => {
    const own = await granted(org);
    const account = await okBody(
      org.call('owner', 'createServiceAccount', { body: { name: unique('Runner'), role: 'MEMBER' } }),
      201,
    );
    const team = await okBody(org.call('owner', 'createTeam', { body: { slug: unique('bots'), name: 'Bots' } }), 201);
    await okBody(org.call('owner', 'addTeamMember', { path: { teamId: team.id }, body: { userId: account.id } }));
    await okBody(
      org.call('owner', 'putProjectTeamAccess', { path: { projectId: own }, body: { teamId: team.id, role: 'READ' } }),
    );
    const token = await okBody(
      org.call('owner', 'createApiToken', {
        body: { name: unique('runner'), scopes: ['usage:read'], serviceAccountId: account.id },
      }),
      201,
    );
    const byAccount = { type: 'serviceAccount' as const, id: account.id };
    const byToken = { type: 'apiToken' as const, id: token.id };
    await okBody(
      org.call('owner', 'createBudget', {
        body: {
          name: 'Runner cap',
          scope: { type: 'serviceAccount', id: account.id },
          metric: 'costUsd',
          amount: 1,
          period: 'month',
          enforcement: 'block',
        },
      }),
      201,
    );
    expect((await admit(org, { projectId: own, initiatedBy: byToken, model: 'gpt-5' })).decision).toBe('allow');
    const at = hub.clock.now().toISOString();
    await hub.services.usage.ingest(
      org.id,
      writeJsonl(tmp, `${unique('runs')}.jsonl`, [runLine(own, 's-bot', at, { costUsd: 1.5, initiatedBy: byToken })]),
    );
    for (const initiatedBy of [byAccount, byToken]) {
      const answer = await admit(org, { projectId: own, initiatedBy, model: 'gpt-5' });
      expect(answer.reasons.map((r) => r.code)).toEqual(['budget_exceeded']);
    }
    expect((await admit(org, { projectId: own, initiatedBy: memberOf(org), model: 'gpt-5' })).decision).toBe('allow');
  });
});

describe('the picker and admission never disagree (random policies, teams and grants)', () => {
  const CAPS = ['cap-a', 'cap-b'];
  const TOOLS = ['t1', 't2'];
  const subset = <T>(items: readonly T[]) => fc.subarray([...items]);
  const allowArb: fc.Arbitrary<Allow> = fc.record(
    {
      models: subset(MODELS),
      capabilities: fc.uniqueArray(
        fc.record({ id: fc.constantFrom(...CAPS), tools: subset(TOOLS) }, { requiredKeys: ['id'] }),
        { selector: (entry) => entry.id, maxLength: 2 },
      ),
    },
    { requiredKeys: [] },
  );
  const scenarioArb = fc.record({
    org: fc.option(allowArb, { nil: undefined }),
    outer: fc.option(allowArb, { nil: undefined }),
    inner: fc.option(allowArb, { nil: undefined }),
    project: fc.option(allowArb, { nil: undefined }),
    teams: fc.array(fc.record({ member: fc.boolean(), allow: fc.option(allowArb, { nil: undefined }) }), {
      maxLength: 2,
    }),
  });

  /** The rule as the contract states it: the path intersects, the initiator's teams with policies unite. */
  function effective(path: Allow[], teams: Allow[], permits: (allow: Allow) => boolean): boolean {
    return path.every(permits) && (teams.length === 0 || teams.some(permits));
  }
  const listed = (list: string[] | undefined, item: string) => list === undefined || list.includes(item);

  it('picker(x) allowed ⇔ admission allows model x ⇔ the rule; the same for capabilities and tools', async () => {
    const org = await seedOrg(hub, unique('prop'));
    for (const id of CAPS)
      await okBody(
        org.call('owner', 'putCapabilityConnection', {
          path: { capabilityId: id },
          body: { label: id, kind: 'http', endpointUrl: 'https://c.example.com' },
        }),
      );
    const initiator = memberOf(org);
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        for (const p of (await okBody(org.call('owner', 'listPolicies'))).policies)
          await okBody(org.call('owner', 'deletePolicy', { path: { policyId: p.id } }));
        const outer = await okBody(org.call('owner', 'createFolder', { body: { name: unique('O') } }), 201);
        const inner = await okBody(
          org.call('owner', 'createFolder', { body: { name: unique('I'), parentId: outer.id } }),
          201,
        );
        const projectId = await granted(org, inner.id);
        const path: Allow[] = [];
        const set = async (scope: Parameters<typeof policy>[1], allow: Allow | undefined) => {
          if (allow === undefined) return;
          await policy(org, scope, allow);
          return allow;
        };
        for (const [scope, allow] of [
          [{ type: 'organization' }, scenario.org],
          [{ type: 'folder', id: outer.id }, scenario.outer],
          [{ type: 'folder', id: inner.id }, scenario.inner],
          [{ type: 'project', id: projectId }, scenario.project],
        ] as const)
          if (await set(scope, allow)) path.push(allow!);
        const teams: Allow[] = [];
        for (const t of scenario.teams) {
          const team = await okBody(org.call('owner', 'createTeam', { body: { slug: unique('pt'), name: 'PT' } }), 201);
          if (t.member)
            await okBody(
              org.call('owner', 'addTeamMember', { path: { teamId: team.id }, body: { userId: org.userIds.member } }),
            );
          if ((await set({ type: 'team', id: team.id }, t.allow)) && t.member) teams.push(t.allow!);
        }
        const picker = await okBody(
          org.call('owner', 'listAgentModels', { query: { projectId, initiator: `member:${initiator.imOpenId}` } }),
        );
        for (const model of picker.models) {
          const admitted =
            (await admit(org, { projectId, initiatedBy: initiator, model: model.id })).decision === 'allow';
          const rule = effective(path, teams, (a) => listed(a.models, model.id));
          expect([model.id, model.allowed, admitted]).toEqual([model.id, rule, rule]);
        }
        const capabilityList = await okBody(
          org.call('owner', 'listCapabilityConnections', {
            query: { projectId, initiator: `member:${initiator.imOpenId}` },
          }),
        );
        for (const connection of capabilityList.connections) {
          const id = connection.capabilityId;
          const capRule = effective(
            path,
            teams,
            (a) => a.capabilities === undefined || a.capabilities.some((e) => e.id === id),
          );
          expect([id, connection.allowed]).toEqual([id, capRule]);
        }
        const anyAllowed = picker.models.find((m) => m.allowed)?.id ?? MODELS[0]!;
        for (const id of CAPS)
          for (const tool of TOOLS) {
            const answer = await admit(org, {
              projectId,
              initiatedBy: initiator,
              model: anyAllowed,
              capabilities: [{ id, tools: [tool] }],
            });
            const refused = answer.reasons.some(
              (r) => r.code === 'capability_unavailable' || r.code === 'tool_not_allowed',
            );
            const capRule = effective(
              path,
              teams,
              (a) => a.capabilities === undefined || a.capabilities.some((e) => e.id === id),
            );
            const toolRule = effective(
              path,
              teams,
              (a) => a.capabilities === undefined || a.capabilities.some((e) => e.id === id && listed(e.tools, tool)),
            );
            expect([id, tool, !refused]).toEqual([id, tool, capRule && toolRule]);
            expect(answer.reasons.some((r) => r.code === 'capability_unavailable')).toBe(!capRule);
          }
      }),
      { numRuns: 12 },
    );
  });
});
