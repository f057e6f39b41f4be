import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { preparedQuery } from '../db/prepared-query.js';
import type { Executor } from '../db/unit-of-work.js';
import type { GrantRole } from '../grants/roles.js';
import { grantsOfUserOnProject } from '../grants/store.js';
import type { ProjectRecord } from './project.js';
import { type SessionRecord, sessionProjection } from './session-projection.js';
import { shownName } from '../users/shown-profile.js';
import { countLiveRows } from '../db/count-rows.js';

/** A project with everything its detail view shows, from one joined query. */
export interface ProjectDetailRecord extends ProjectRecord {
  folder_name: string | null;
  creator_display_name: string | null;
  creator_im_open_id: string | null;
  binding_chat_id: string | null;
  binding_created_at: string | null;
}

/** A project's chat binding, as far as its API shape and its archiving need it. */
export interface BindingRecord {
  id: string;
  chat_id: string;
  created_at: string;
}

// The reads of a project that each request on it makes, prepared (src/db/prepared-query.ts).
const projectInOrg = preparedQuery<{ organizationId: string; projectId: string }, ProjectRecord>(
  (db, { organizationId, projectId }) =>
    db('projects').where({ id: projectId, organization_id: organizationId }).limit(1).select('*'),
);

/**
 * The project with everything its detail view shows: its folder's name, its creator, its active
 * chat binding (one at most, by a unique index, so the joins add no rows).
 */
const withDetail = (db: Executor): Knex.QueryBuilder =>
  db('projects as p')
    .leftJoin('folders as f', 'f.id', 'p.folder_id')
    .leftJoin('users as u', 'u.id', 'p.created_by')
    .leftJoin('memberships as m', (on) =>
      on.on('m.user_id', '=', 'p.created_by').andOn('m.organization_id', '=', 'p.organization_id'),
    )
    .leftJoin('project_bindings as b', (on) => on.on('b.project_id', 'p.id').andOnNull('b.archived_at'))
    .select(
      'p.*',
      'f.name as folder_name',
      // The creator as the project's organization names them (src/users/shown-profile.ts).
      shownName(db, { user: 'u', membership: 'm' }, 'creator_display_name'),
      'u.im_open_id as creator_im_open_id',
      'b.chat_id as binding_chat_id',
      'b.created_at as binding_created_at',
    );

/**
 * One row per role the user holds on the project, or one with a null role when they hold none,
 * each with the project's detail: a read of the project asks its rules and shows it in one trip.
 */
const projectInOrgWithRoles = preparedQuery<
  { organizationId: string; projectId: string; userId: string },
  ProjectRecord & { grant_role: GrantRole | null }
>((db, { organizationId, projectId, userId }) =>
  db('projects as p')
    .select('p.*')
    .leftJoin(
      grantsOfUserOnProject(db, organizationId, userId, projectId).select('g.project_id', 'g.role').as('gr'),
      'gr.project_id',
      'p.id',
    )
    .where({ 'p.id': projectId, 'p.organization_id': organizationId })
    .select('gr.role as grant_role'),
);

const projectDetail = preparedQuery<{ projectId: string }, ProjectDetailRecord>((db, { projectId }) =>
  withDetail(db).where('p.id', projectId).limit(1),
);

/** Projects, their chat bindings and their agent sessions. */
export class ProjectStore {
  async findInOrg(db: Executor, organizationId: string, projectId: string): Promise<ProjectRecord | undefined> {
    const [project] = await projectInOrg(db, { organizationId, projectId });
    return project;
  }

  /**
   * The project, if it is in the organization, with every role the user holds on it through any
   * principal: the two questions of the project rules, in one statement.
   */
  async findInOrgWithRoles(
    db: Executor,
    params: { organizationId: string; projectId: string; userId: string },
  ): Promise<{ project: ProjectRecord; roles: GrantRole[] } | undefined> {
    const rows = await projectInOrgWithRoles(db, params);
    if (rows.length === 0) return undefined;
    const { grant_role: _role, ...project } = rows[0]!;
    return { project, roles: rows.flatMap((row) => (row.grant_role ? [row.grant_role] : [])) };
  }

  /** The organization's agent sessions that are not archived (`sessionCount` in use). */
  async countOpenSessions(db: Executor, organizationId: string): Promise<number> {
    return countLiveRows(db, 'agent_sessions', 'archived_at', organizationId);
  }

  async countActive(db: Executor, organizationId: string): Promise<number> {
    return countLiveRows(db, 'projects', 'archived_at', organizationId);
  }

  async detail(db: Executor, projectId: string): Promise<ProjectDetailRecord | undefined> {
    const [detail] = await projectDetail(db, { projectId });
    return detail;
  }

  async insert(
    db: Executor,
    input: {
      id?: string;
      organizationId: string;
      folderId: string | null;
      name: string;
      workspaceDir: string;
      createdBy: string;
    },
    at: string,
  ): Promise<ProjectRecord> {
    const row: ProjectRecord = {
      id: input.id ?? randomUUID(),
      organization_id: input.organizationId,
      folder_id: input.folderId,
      name: input.name,
      workspace_dir: input.workspaceDir,
      created_by: input.createdBy,
      created_at: at,
      archived_at: null,
    };
    await db('projects').insert(row);
    return row;
  }

  async update(
    db: Executor,
    projectId: string,
    changes: Partial<Pick<ProjectRecord, 'name' | 'folder_id' | 'archived_at'>>,
  ): Promise<void> {
    await db('projects').where({ id: projectId }).update(changes);
  }

  async activeBinding(db: Executor, projectId: string): Promise<BindingRecord | undefined> {
    return db('project_bindings')
      .where({ project_id: projectId })
      .whereNull('archived_at')
      .first('id', 'chat_id', 'created_at');
  }

  async activeBindingOfChat(db: Executor, chatId: string): Promise<{ id: string; project_id: string } | undefined> {
    return db('project_bindings').where({ chat_id: chatId }).whereNull('archived_at').first('id', 'project_id');
  }

  async archiveBinding(db: Executor, bindingId: string, at: string): Promise<void> {
    await db('project_bindings').where({ id: bindingId }).update({ archived_at: at });
  }

  async insertBinding(db: Executor, project: ProjectRecord, chatId: string, at: string): Promise<void> {
    await db('project_bindings').insert({
      id: randomUUID(),
      project_id: project.id,
      organization_id: project.organization_id,
      chat_id: chatId,
      created_at: at,
      archived_at: null,
    });
  }

  /**
   * The project's sessions that are not archived, most recently active first, from after the
   * session `after` names (its `updated_at` and `id`, the order's key) when given.
   */
  async listSessions(
    db: Executor,
    projectId: string,
    limit: number,
    after?: readonly [updatedAt: string, id: string],
  ): Promise<SessionRecord[]> {
    const query = db('agent_sessions').where({ project_id: projectId }).whereNull('archived_at');
    if (after) {
      const [updatedAt, id] = after;
      query.where((w) =>
        w
          .where('updated_at', '<', updatedAt)
          .orWhere((e) => e.where({ updated_at: updatedAt }).andWhere('id', '<', id)),
      );
    }
    return query
      .orderBy(sessionProjection.sqlOrder)
      .limit(limit)
      .select('id', 'provider', 'role_id', 'model', 'title', 'run_count', 'created_at', 'updated_at');
  }
}
