import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ACTOR, withAuditScope } from '../../src/audit/scope.js';
import { removeTree } from '../../src/skills/content-store.js';
import type { HttpResult, Schema } from '../support/api-client.js';
import { expectError, okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { skillMd } from '../skills/support.js';

/**
 * The audit trail of folders, the agent library, projects, their chat binding and team access,
 * agent roles and agent skills: each change made over HTTP writes exactly one event in its
 * transaction — the operationId, the target, the target as the API shows it before and after,
 * the response's request id — and a refused call, or one that changes nothing, writes none.
 */

type AuditEvent = Schema<'AuditEvent'>;
type ProjectDetail = Schema<'ProjectDetail'>;

let hub: TestHub;

beforeAll(async () => {
  hub = await TestHub.start();
});
afterAll(async () => {
  // Skill store entries are read-only; removing them needs writable directories unless running as root.
  if (hub) await removeTree(path.join(hub.database.dataDir, 'skills'));
  await hub?.stop();
});

/** The organization's whole audit log, newest first. */
async function auditLog(org: OrgFixture): Promise<AuditEvent[]> {
  return (await okBody(org.call('owner', 'listAuditEvents', { query: { limit: 1000 } }), 200)).events;
}

/** Makes the call; answers its result and the audit events it added, newest first. */
async function tracked<R>(org: OrgFixture, call: () => Promise<R>) {
  const seen = new Set((await auditLog(org)).map((event) => event.id));
  // A step of the clock per call, so every change shows a new time and each event its own.
  hub.clock.advance(1000);
  const res = await call();
  return { res, events: (await auditLog(org)).filter((event) => !seen.has(event.id)) };
}

const isLabel = (label: unknown) => label === null || (typeof label === 'string' && label.length > 0);

interface ExpectedEvent {
  action: string;
  target: { type: string; id: string };
  before: unknown;
  after: unknown;
}

/**
 * The call succeeds with `status` and adds exactly one event: the org's OWNER as actor, the
 * call's time and request id, and the expected action, target and changes. Answers the body.
 */
async function expectAudited<R extends HttpResult>(
  org: OrgFixture,
  status: number,
  call: () => Promise<R>,
  expected: (body: Exclude<R['body'], Schema<'Error'>>) => ExpectedEvent | Promise<ExpectedEvent>,
): Promise<Exclude<R['body'], Schema<'Error'>>> {
  const { res, events } = await tracked(org, call);
  expect(res.status, res.text).toBe(status);
  const body = res.body as Exclude<R['body'], Schema<'Error'>>;
  const { action, target, before, after } = await expected(body);
  expect(events).toEqual([
    {
      id: expect.any(String),
      at: hub.clock.now().toISOString(),
      actor: { type: 'user', id: org.userIds.owner, displayName: `Owner of ${org.slug}` },
      action,
      // Labels and sentences are checked in audit-readable.test.ts.
      target: { ...target, label: expect.toSatisfy(isLabel) },
      summary: expect.any(String),
      requestId: res.headers.get('x-request-id'),
      clientRequestId: null,
      changes: { before, after },
    },
  ]);
  expect(res.headers.get('x-request-id')).toEqual(expect.any(String));
  return body;
}

/** The call is refused with this status and code, or answers `status` without changing anything: no event. */
async function expectUnaudited(org: OrgFixture, call: () => Promise<HttpResult>, status: number, code?: string) {
  const { res, events } = await tracked(org, call);
  if (code === undefined) expect(res.status, res.text).toBe(status);
  else expectError(res, status, code);
  expect(events).toEqual([]);
}

/** A project's detail as every caller sees it: without the caller's own `actor…` flags. */
function shown({ actorIsOrgAdmin: _admin, actorCanManageProject: _manage, ...project }: ProjectDetail) {
  return project;
}

describe('folder trees: project folders and the agent library record one event per change', () => {
  const trees = [
    {
      type: 'folder',
      create: 'createFolder',
      update: 'updateFolder',
      archive: 'archiveFolder',
    },
    {
      type: 'library_folder',
      create: 'createAgentLibraryFolder',
      update: 'updateAgentLibraryFolder',
      archive: 'archiveAgentLibraryFolder',
    },
  ] as const;

  for (const tree of trees) {
    it(`${tree.create}, ${tree.update} and ${tree.archive} as ${tree.type}; refusals record nothing`, async () => {
      const org = await seedOrg(hub, `tree-${tree.type.replace('_', '-')}`);
      const create = (body: Schema<'CreateFolderRequest'>) => () => org.call('owner', tree.create, { body });
      const update = (folderId: string, body: Schema<'UpdateFolderRequest'>) => () =>
        org.call('owner', tree.update, { path: { folderId }, body });
      const archive = (folderId: string) => () => org.call('owner', tree.archive, { path: { folderId } });

      const top = await expectAudited(org, 201, create({ name: 'Top' }), (row) => ({
        action: tree.create,
        target: { type: tree.type, id: row.id },
        before: null,
        after: row,
      }));
      const child = await expectAudited(org, 201, create({ name: 'Child', parentId: top.id }), (row) => ({
        action: tree.create,
        target: { type: tree.type, id: row.id },
        before: null,
        after: { id: row.id, name: 'Child', parentId: top.id, sortKey: row.sortKey },
      }));

      const renamed = await expectAudited(org, 200, update(top.id, { name: 'Renamed', sortKey: 'k' }), (row) => ({
        action: tree.update,
        target: { type: tree.type, id: top.id },
        before: top,
        after: row,
      }));
      expect(renamed).toEqual({ ...top, name: 'Renamed', sortKey: 'k' });
      // The same values again change nothing, so nothing is recorded.
      await expectUnaudited(org, update(top.id, { name: 'Renamed', sortKey: 'k' }), 200);

      await expectUnaudited(org, update(top.id, { parentId: child.id, name: 'Cycled' }), 409, 'folder_cycle');
      await expectUnaudited(org, create({ name: 'Orphan', parentId: 'no-such-folder' }), 404, 'folder_not_found');
      await expectUnaudited(org, archive(top.id), 409, 'folder_not_empty');

      await expectAudited(org, 200, archive(child.id), () => ({
        action: tree.archive,
        target: { type: tree.type, id: child.id },
        before: child,
        after: null,
      }));
      await expectUnaudited(org, archive(child.id), 404, 'folder_not_found');
    });
  }
});

describe('projects: create, rename, move, archive, the chat binding and team access', () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await seedOrg(hub, 'audit-projects');
  });

  const detail = async (projectId: string) =>
    shown(await okBody(org.call('owner', 'getProject', { path: { projectId } }), 200));

  it('createProject, renameProject, moveProject and archiveProject record the project as shown', async () => {
    const created = await expectAudited(
      org,
      201,
      () => org.call('owner', 'createProject', { body: { name: 'Apollo' } }),
      async (body) => ({
        action: 'createProject',
        target: { type: 'project', id: body.id },
        before: null,
        after: await detail(body.id),
      }),
    );
    const projectId = created.id;
    const path = { projectId };
    const initial = await detail(projectId);
    expect(initial).toMatchObject({ name: 'Apollo', folderId: null, archivedAt: null, binding: null });

    const renamed = await expectAudited(
      org,
      200,
      () => org.call('owner', 'renameProject', { path, body: { name: 'Artemis' } }),
      (body) => ({
        action: 'renameProject',
        target: { type: 'project', id: projectId },
        before: initial,
        after: shown(body),
      }),
    );
    expect(renamed.name).toBe('Artemis');
    await expectUnaudited(org, () => org.call('owner', 'renameProject', { path, body: { name: 'Artemis' } }), 200);

    const folder = await okBody(org.call('owner', 'createFolder', { body: { name: 'Missions' } }), 201);
    const moved = await expectAudited(
      org,
      200,
      () => org.call('owner', 'moveProject', { path, body: { folderId: folder.id } }),
      (body) => ({
        action: 'moveProject',
        target: { type: 'project', id: projectId },
        before: shown(renamed),
        after: shown(body),
      }),
    );
    expect(moved.folder).toEqual({ id: folder.id, name: 'Missions' });
    await expectUnaudited(
      org,
      () => org.call('owner', 'moveProject', { path, body: { folderId: 'no-such-folder' } }),
      404,
      'folder_not_found',
    );
    await expectUnaudited(
      org,
      () => org.call('owner', 'renameProject', { path: { projectId: 'no-such-project' }, body: { name: 'X' } }),
      404,
      'project_not_found',
    );

    const archived = await expectAudited(
      org,
      200,
      () => org.call('owner', 'archiveProject', { path }),
      (body) => ({
        action: 'archiveProject',
        target: { type: 'project', id: projectId },
        before: shown(moved),
        after: shown(body),
      }),
    );
    expect(archived.archivedAt).toBe(hub.clock.now().toISOString());
    await expectUnaudited(org, () => org.call('owner', 'archiveProject', { path }), 409, 'project_archived');
    await expectUnaudited(
      org,
      () => org.call('owner', 'renameProject', { path, body: { name: 'Late' } }),
      409,
      'project_archived',
    );
  });

  it('bindChat (hub project bind) and archiveProjectBinding record the binding, named by the project', async () => {
    const { id: projectId } = await okBody(org.call('owner', 'createProject', { body: { name: 'Bound' } }), 201);
    const path = { projectId };
    const bind = (chatId: string) =>
      withAuditScope({ actor: CONSOLE_ACTOR, at: hub.clock.now(), action: 'hub.project.bind', requestId: null }, () =>
        hub.services.projects.bindChat(org.id, projectId, chatId),
      );
    const consoleEvent = (before: unknown, after: { chatId: string } | null) => ({
      id: expect.any(String),
      at: hub.clock.now().toISOString(),
      actor: { type: 'console', id: null, displayName: CONSOLE_ACTOR.displayName },
      action: 'hub.project.bind',
      target: { type: 'project_binding', id: projectId, label: 'Bound' },
      summary: `hub console bound chat ${after?.chatId} to project Bound`,
      requestId: null,
      clientRequestId: null,
      changes: { before, after },
    });

    const first = await tracked(org, () => bind('chat-one'));
    const firstBinding = (await detail(projectId)).binding;
    expect(firstBinding).toEqual({ chatId: 'chat-one', createdAt: hub.clock.now().toISOString() });
    expect(first.events).toEqual([consoleEvent(null, firstBinding)]);

    const second = await tracked(org, () => bind('chat-two'));
    expect(second.res).toMatchObject({ replaced: 'chat-one' });
    const secondBinding = (await detail(projectId)).binding;
    expect(second.events).toEqual([consoleEvent(firstBinding, secondBinding)]);

    // Binding the chat the project already has changes nothing.
    const again = await tracked(org, () => bind('chat-two'));
    expect(again.events).toEqual([]);

    await expectAudited(
      org,
      200,
      () => org.call('owner', 'archiveProjectBinding', { path }),
      () => ({
        action: 'archiveProjectBinding',
        target: { type: 'project_binding', id: projectId },
        before: secondBinding,
        after: null,
      }),
    );
    expect((await detail(projectId)).binding).toBeNull();
    await expectUnaudited(org, () => org.call('owner', 'archiveProjectBinding', { path }), 404, 'binding_not_found');
  });

  it('putProjectTeamAccess and deleteProjectTeamAccess by the MANAGE holder record the team entry', async () => {
    // The owner created the project, so holds its MANAGE grant.
    const { id: projectId } = await okBody(org.call('owner', 'createProject', { body: { name: 'Shared' } }), 201);
    const path = { projectId };
    const team = await okBody(org.call('owner', 'createTeam', { body: { slug: 'crew', name: 'Crew' } }), 201);
    const target = { type: 'project_team_access', id: `${projectId}:${team.id}` };
    const put = (role: 'READ' | 'EDIT' | 'MANAGE') => () =>
      org.call('owner', 'putProjectTeamAccess', { path, body: { teamSlug: 'crew', role } });

    const granted = await expectAudited(org, 200, put('READ'), (entry) => ({
      action: 'putProjectTeamAccess',
      target,
      before: null,
      after: entry,
    }));
    expect(granted).toMatchObject({ teamId: team.id, role: 'READ' });
    const raised = await expectAudited(org, 200, put('EDIT'), (entry) => ({
      action: 'putProjectTeamAccess',
      target,
      before: granted,
      after: entry,
    }));
    expect(raised).toEqual({ ...granted, role: 'EDIT' });
    await expectUnaudited(org, put('EDIT'), 200);
    await expectUnaudited(
      org,
      () => org.call('owner', 'putProjectTeamAccess', { path, body: { teamSlug: 'nobody', role: 'READ' } }),
      404,
      'team_not_found',
    );

    const remove = () => org.call('owner', 'deleteProjectTeamAccess', { path: { projectId, teamId: team.id } });
    await expectAudited(org, 204, remove, () => ({
      action: 'deleteProjectTeamAccess',
      target,
      before: raised,
      after: null,
    }));
    await expectUnaudited(org, remove, 404, 'grant_not_found');
  });
});

describe('agent roles, their skills and agent skills', () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await seedOrg(hub, 'audit-agents');
  });

  const skillRow = async (name: string) => {
    const row = (await okBody(org.call('owner', 'listAgentSkills'), 200)).skills.find((s) => s.name === name);
    if (!row) throw new Error(`no skill ${name}`);
    return row;
  };
  const install =
    (name: string, version: string, description: string, files = [skillMd(name, description)]) =>
    () =>
      org.call('owner', 'installAgentSkill', { path: { name }, body: { version, files } });

  it('installAgentSkill and updateAgentSkill (relabel, disable) record the skill, named by its name', async () => {
    const target = { type: 'agent_skill', id: 'reviewer' };
    await expectAudited(org, 200, install('reviewer', '1.0.0', 'Reviews code'), async () => ({
      action: 'installAgentSkill',
      target,
      before: null,
      after: await skillRow('reviewer'),
    }));
    const v1 = await skillRow('reviewer');
    expect(v1).toMatchObject({ version: '1.0.0', description: 'Reviews code', disabledAt: null });

    await expectAudited(org, 200, install('reviewer', '2.0.0', 'Reviews code closely'), async () => ({
      action: 'installAgentSkill',
      target,
      before: v1,
      after: await skillRow('reviewer'),
    }));
    const v2 = await skillRow('reviewer');
    expect(v2).toMatchObject({ id: v1.id, version: '2.0.0', description: 'Reviews code closely' });
    // Installing what the skill holds again changes nothing, its time included.
    await expectUnaudited(org, install('reviewer', '2.0.0', 'Reviews code closely'), 200);
    expect(await skillRow('reviewer')).toEqual(v2);
    await expectUnaudited(
      org,
      // No SKILL.md: inspection refuses it before anything is written.
      install('reviewer', '3.0.0', 'unused', [{ path: 'README.md', content: 'no manifest\n' }]),
      422,
      'invalid_skill',
    );

    const patch =
      (body: Schema<'UpdateAgentSkillRequest'>, name = 'reviewer') =>
      () =>
        org.call('owner', 'updateAgentSkill', { path: { name }, body });
    await expectAudited(org, 200, patch({ description: 'Relabelled' }), async () => ({
      action: 'updateAgentSkill',
      target,
      before: v2,
      after: await skillRow('reviewer'),
    }));
    const relabelled = await skillRow('reviewer');
    expect(relabelled.description).toBe('Relabelled');

    await expectAudited(org, 200, patch({ disabled: true }), async () => ({
      action: 'updateAgentSkill',
      target,
      before: relabelled,
      after: await skillRow('reviewer'),
    }));
    expect((await skillRow('reviewer')).disabledAt).toBe(hub.clock.now().toISOString());

    await expectUnaudited(org, patch({}), 200);
    await expectUnaudited(org, patch({ disabled: true }, 'no-such-skill'), 404, 'skill_not_found');
    await expectUnaudited(org, patch({ libraryFolderId: 'no-such-folder' }), 404, 'folder_not_found');
  });

  it('putAgentRole, updateAgentRole and putAgentRoleSkills record the role and its set of skills', async () => {
    await okBody(install('linter', '1.0.0', 'Lints')(), 200);
    const roleId = 'coder';
    const path = { roleId };
    const target = { type: 'agent_role', id: roleId };

    const created = await expectAudited(
      org,
      200,
      () => org.call('owner', 'putAgentRole', { path, body: { label: 'Coder' } }),
      (row) => ({ action: 'putAgentRole', target, before: null, after: row }),
    );
    expect(created).toMatchObject({ roleId, label: 'Coder', skillNames: [] });
    const relabelled = await expectAudited(
      org,
      200,
      () => org.call('owner', 'putAgentRole', { path, body: { label: 'Senior coder', sortOrder: 5 } }),
      (row) => ({ action: 'putAgentRole', target, before: created, after: row }),
    );
    expect(relabelled).toMatchObject({ id: created.id, label: 'Senior coder', sortOrder: 5 });
    await expectUnaudited(
      org,
      () => org.call('owner', 'putAgentRole', { path, body: { label: 'Coder', defaultModel: 'no-such-model' } }),
      422,
      'unknown_model',
    );

    const skillsTarget = { type: 'agent_role_skills', id: roleId };
    const putSkills = (skillNames: string[]) => () =>
      org.call('owner', 'putAgentRoleSkills', { path, body: { skillNames } });
    await expectAudited(org, 200, putSkills(['linter']), (body) => ({
      action: 'putAgentRoleSkills',
      target: skillsTarget,
      before: { skillNames: [] },
      after: body,
    }));
    await expectUnaudited(org, putSkills(['linter', 'linter']), 200);
    await expectUnaudited(org, putSkills(['linter', 'missing']), 422, 'unknown_skill');
    await expectUnaudited(
      org,
      () => org.call('owner', 'putAgentRoleSkills', { path: { roleId: 'ghost' }, body: { skillNames: [] } }),
      404,
      'role_not_found',
    );
    const bound = await okBody(org.call('owner', 'listAgentRoles'), 200);
    const withSkill = bound.roles.find((role) => role.roleId === roleId);
    expect(withSkill?.skillNames).toEqual(['linter']);

    const disabled = await expectAudited(
      org,
      200,
      () => org.call('owner', 'updateAgentRole', { path, body: { disabled: true } }),
      (row) => ({ action: 'updateAgentRole', target, before: withSkill, after: row }),
    );
    expect(disabled.disabledAt).toBe(hub.clock.now().toISOString());
    await expectUnaudited(
      org,
      () => org.call('owner', 'updateAgentRole', { path: { roleId: 'ghost' }, body: { disabled: true } }),
      404,
      'role_not_found',
    );
    await expectUnaudited(
      org,
      () => org.call('owner', 'putAgentRole', { path, body: { label: 'Coder', isDefault: true } }),
      409,
      'role_is_default',
    );
  });
});
