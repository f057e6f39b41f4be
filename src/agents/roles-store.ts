import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/unit-of-work.js';
import { byCodeUnits } from '../shared/order.js';

/**
 * A row of `agent_roles`. `id` is the row's own key (what `agent_role_skills.role_id` points
 * at); `role_id` is the organization's name for the role, the `roleId` of the API.
 */
export interface RoleRecord {
  id: string;
  organization_id: string;
  role_id: string;
  label: string;
  default_model: string | null;
  system_prompt: string | null;
  /** JSON array text, or null for the runtime's default tools. */
  tools: string | null;
  sort_order: number;
  /** A boolean on PostgreSQL, 0 or 1 on SQLite. */
  is_default: boolean | number;
  disabled_at: string | null;
  /** The agent library folder the role sits in; null: the library's root. */
  library_folder_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A role's whole definition as a PUT gives it; every field is set, defaults already applied. */
export interface RoleDefinition {
  label: string;
  defaultModel: string | null;
  systemPrompt: string | null;
  tools: string[] | null;
  sortOrder: number;
  isDefault: boolean;
  /** The library folder (null: the root); undefined keeps the role where it is (a new role: the root). */
  libraryFolderId: string | null | undefined;
}

/** A role with the names of the skills bound to it, sorted. */
export interface RoleWithSkills {
  role: RoleRecord;
  skillNames: string[];
}

export interface SkillRef {
  id: string;
  name: string;
}

/** Agent roles and the skills bound to them. */
export class AgentRoleStore {
  /** Every role of the organization, disabled ones too, with its bound skills: two queries in all. */
  async list(db: Executor, organizationId: string): Promise<RoleWithSkills[]> {
    const [roles, bindings] = await Promise.all([
      db<RoleRecord>('agent_roles').where({ organization_id: organizationId }).select('*'),
      db('agent_role_skills as b')
        .join('agent_roles as r', 'r.id', 'b.role_id')
        .join('agent_skills as s', 's.id', 'b.skill_id')
        .where('r.organization_id', organizationId)
        .select<Array<{ role_key: string; name: string }>>('b.role_id as role_key', 's.name'),
    ]);
    const namesByRole = new Map<string, string[]>();
    for (const { role_key, name } of bindings) namesByRole.set(role_key, [...(namesByRole.get(role_key) ?? []), name]);
    return roles.map((role) => ({ role, skillNames: (namesByRole.get(role.id) ?? []).sort(byCodeUnits) }));
  }

  async find(
    db: Executor,
    organizationId: string,
    roleId: string,
    options: { enabledSkillsOnly?: boolean } = {},
  ): Promise<RoleWithSkills | undefined> {
    const role = await db<RoleRecord>('agent_roles')
      .where({ organization_id: organizationId, role_id: roleId })
      .first();
    return role && { role, skillNames: await this.boundSkillNames(db, role.id, options) };
  }

  /**
   * Locks the organization's row until the transaction ends (PostgreSQL; SQLite's single
   * connection already serializes writers), so two requests making different roles the default
   * take turns, and the second clears what the first set instead of tripping the one-default
   * index. NO KEY UPDATE does not block the key-share locks that inserts referencing the
   * organization take.
   */
  async lockOrganization(trx: Executor, organizationId: string): Promise<void> {
    await trx('organizations').where({ id: organizationId }).forNoKeyUpdate().first('id');
  }

  /** Takes the default flag off every role of the organization but `roleId`. */
  async clearDefaultExcept(trx: Executor, organizationId: string, roleId: string, at: string): Promise<void> {
    await trx('agent_roles')
      .where({ organization_id: organizationId, is_default: true })
      .whereNot({ role_id: roleId })
      .update({ is_default: false, updated_at: at });
  }

  /**
   * Creates the role or replaces its definition in one statement, so two concurrent PUTs of one
   * roleId cannot both insert. The row key, `createdAt` and `disabledAt` of an existing role
   * are kept.
   */
  async upsert(
    trx: Executor,
    organizationId: string,
    roleId: string,
    definition: RoleDefinition,
    at: string,
  ): Promise<void> {
    const fields = {
      label: definition.label,
      default_model: definition.defaultModel,
      system_prompt: definition.systemPrompt,
      tools: definition.tools === null ? null : JSON.stringify(definition.tools),
      sort_order: definition.sortOrder,
      is_default: definition.isDefault,
      ...(definition.libraryFolderId === undefined ? {} : { library_folder_id: definition.libraryFolderId }),
      updated_at: at,
    };
    await trx('agent_roles')
      .insert({
        library_folder_id: null,
        id: randomUUID(),
        organization_id: organizationId,
        role_id: roleId,
        ...fields,
        disabled_at: null,
        created_at: at,
      })
      .onConflict(['organization_id', 'role_id'])
      .merge(Object.keys(fields));
  }

  /** Disables the role (keeping the time of a disable already in force) or re-enables it. */
  async setDisabled(
    trx: Executor,
    organizationId: string,
    roleId: string,
    disabled: boolean,
    at: string,
  ): Promise<void> {
    await trx('agent_roles')
      .where({ organization_id: organizationId, role_id: roleId })
      .update({ disabled_at: disabled ? trx.raw('coalesce(disabled_at, ?)', [at]) : null, updated_at: at });
  }

  /** Archives every open session of the organization that runs as this role (a session names its role by `roleId`). */
  async archiveOpenSessions(trx: Executor, organizationId: string, roleId: string, at: string): Promise<number> {
    return trx('agent_sessions')
      .where({ organization_id: organizationId, role_id: roleId })
      .whereNull('archived_at')
      .update({ archived_at: at });
  }

  /**
   * Marks the role as changed and returns its row key and label, or undefined when the organization has
   * no such role. The update also locks the row until the transaction ends, so replacements of
   * one role's skill set run one at a time.
   */
  async touch(
    trx: Executor,
    organizationId: string,
    roleId: string,
    at: string,
  ): Promise<{ id: string; label: string } | undefined> {
    const updated = await trx('agent_roles')
      .where({ organization_id: organizationId, role_id: roleId })
      .update({ updated_at: at })
      .returning<Array<{ id: string; label: string }>>(['id', 'label']);
    return updated[0];
  }

  /** The organization's skills of these names, disabled ones included. */
  async skillsNamed(trx: Executor, organizationId: string, names: readonly string[]): Promise<SkillRef[]> {
    if (names.length === 0) return [];
    return trx('agent_skills')
      .where({ organization_id: organizationId })
      .whereIn('name', names)
      .select<SkillRef[]>('id', 'name');
  }

  /** Makes exactly these skills the role's bound ones; bindings that stay keep their creation time. */
  async replaceBindings(trx: Executor, roleKey: string, skillIds: readonly string[], at: string): Promise<void> {
    const stale = trx('agent_role_skills').where({ role_id: roleKey });
    if (skillIds.length > 0) stale.whereNotIn('skill_id', skillIds);
    await stale.delete();
    if (skillIds.length === 0) return;
    await trx('agent_role_skills')
      .insert(skillIds.map((skillId) => ({ role_id: roleKey, skill_id: skillId, created_at: at })))
      .onConflict(['role_id', 'skill_id'])
      .ignore();
  }

  /** Names of the skills bound to the role, sorted. */
  async boundSkillNames(
    trx: Executor,
    roleKey: string,
    options: { enabledSkillsOnly?: boolean } = {},
  ): Promise<string[]> {
    const query = trx('agent_role_skills as b')
      .join('agent_skills as s', 's.id', 'b.skill_id')
      .where('b.role_id', roleKey);
    if (options.enabledSkillsOnly) query.whereNull('s.disabled_at');
    const rows = await query.select<Array<{ name: string }>>('s.name');
    return rows.map((row) => row.name).sort(byCodeUnits);
  }
}
