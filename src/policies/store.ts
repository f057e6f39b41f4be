import type { Executor } from '../db/unit-of-work.js';

/** Deeper than any folder tree is let grow; it only bounds a walk up a corrupted tree. */
const MAX_FOLDER_DEPTH = 1000;

export type PolicyScopeType = 'organization' | 'folder' | 'project' | 'team';

/** A row of `usage_policies`; `scope_id` is '' for the organization's own policy. */
export interface PolicyRecord {
  id: string;
  organization_id: string;
  scope_type: PolicyScopeType;
  scope_id: string;
  /** JSON text of the allow as the API shows it. */
  allow: string;
  created_at: string;
  updated_at: string;
}

/** Whether an error is the database refusing a second policy of one scope (the unique index). */
export const isScopeCollision = (err: unknown) =>
  err instanceof Error && /usage_policies_scope_unique|UNIQUE constraint failed: usage_policies/.test(err.message);

/** Usage policies, and the names of what their scopes point at. */
export class PolicyStore {
  async insert(trx: Executor, row: PolicyRecord): Promise<void> {
    await trx('usage_policies').insert(row);
  }

  /** The organization's policies: its own first, then folders', projects', teams', each by id. */
  list(db: Executor, organizationId: string): Promise<PolicyRecord[]> {
    return db('usage_policies')
      .where({ organization_id: organizationId })
      .orderByRaw(
        "case scope_type when 'organization' then 0 when 'folder' then 1 when 'project' then 2 else 3 end, scope_id",
      )
      .select<PolicyRecord[]>('*');
  }

  find(db: Executor, organizationId: string, id: string): Promise<PolicyRecord | undefined> {
    return db('usage_policies').where({ organization_id: organizationId, id }).first<PolicyRecord | undefined>();
  }

  findByScope(
    db: Executor,
    organizationId: string,
    scopeType: PolicyScopeType,
    scopeId: string,
  ): Promise<PolicyRecord | undefined> {
    return db('usage_policies')
      .where({ organization_id: organizationId, scope_type: scopeType, scope_id: scopeId })
      .first<PolicyRecord | undefined>();
  }

  async update(trx: Executor, id: string, allow: string, at: string): Promise<void> {
    await trx('usage_policies').where({ id }).update({ allow, updated_at: at });
  }

  async delete(trx: Executor, id: string): Promise<void> {
    await trx('usage_policies').where({ id }).delete();
  }

  /**
   * The folders on a project's path, from the root down to its own folder, with their names: one
   * recursive walk up `parent_id` from the project's folder (none when the project is at the root
   * or is not the organization's). The folder tree refuses cycles; the depth bound only guards.
   */
  async pathOfProject(
    db: Executor,
    organizationId: string,
    projectId: string,
  ): Promise<Array<{ id: string; name: string }>> {
    const rows = await db
      .withRecursive('up', ['id', 'parent_id', 'name', 'depth'], (walk) => {
        walk
          .select('f.id', 'f.parent_id', 'f.name', db.raw('0'))
          .from('folders as f')
          .join('projects as p', 'p.folder_id', 'f.id')
          .where({ 'p.id': projectId, 'p.organization_id': organizationId, 'f.organization_id': organizationId })
          .unionAll((above) => {
            above
              .select('f.id', 'f.parent_id', 'f.name', db.raw('up.depth + 1'))
              .from('folders as f')
              .join('up', 'f.id', 'up.parent_id')
              .where('f.organization_id', organizationId)
              .andWhere('up.depth', '<', MAX_FOLDER_DEPTH);
          });
      })
      .select<{ id: string; name: string }[]>('id', 'name')
      .from('up')
      .orderBy('depth', 'desc');
    return rows.map(({ id, name }) => ({ id, name }));
  }

  /** The names of the organization's teams among `ids`, archived ones included. */
  async teamNames(db: Executor, organizationId: string, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await db('teams')
      .where({ organization_id: organizationId })
      .whereIn('id', ids)
      .select<{ id: string; name: string }[]>('id', 'name');
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** Whether the organization's token is live at `now`: neither revoked nor expired. */
  async liveToken(db: Executor, organizationId: string, id: string, now: string): Promise<boolean> {
    const row = await db('api_tokens')
      .where({ organization_id: organizationId, id })
      .whereNull('revoked_at')
      .where((q) => q.whereNull('expires_at').orWhere('expires_at', '>', now))
      .first('id');
    return row !== undefined;
  }
}
