import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/unit-of-work.js';
import { byCodeUnits } from '../shared/order.js';

/** A row of `agent_skills`. */
export interface SkillRecord {
  id: string;
  organization_id: string;
  name: string;
  version: string;
  description: string | null;
  content_digest: string;
  disabled_at: string | null;
  /** The agent library folder the skill sits in; null: the library's root. */
  library_folder_id: string | null;
  created_at: string;
  updated_at: string;
}

/** What an install writes: the content and its labels; the disabled state is left as it is. */
export interface SkillContent {
  organizationId: string;
  name: string;
  version: string;
  description: string | null;
  contentDigest: string;
}

/** Whether the row already has everything an install of `content` would write (its time aside). */
export const holdsContent = (row: SkillRecord, content: SkillContent): boolean =>
  row.version === content.version &&
  row.description === content.description &&
  row.content_digest === content.contentDigest;

/** A skill with the `roleId`s of the roles bound to it, sorted. */
export interface SkillWithRoles {
  skill: SkillRecord;
  boundRoleIds: string[];
}

const SKILL_COLUMNS = [
  'id',
  'organization_id',
  'name',
  'version',
  'description',
  'content_digest',
  'disabled_at',
  'library_folder_id',
  'created_at',
  'updated_at',
] as const;

/** Agent skill rows, their role bindings as seen from the skill, and the sessions a disable archives. */
export class SkillStore {
  /**
   * Every skill of the organization, disabled ones too, each with the `roleId`s of the roles
   * bound to it: one statement, the bindings joined in.
   */
  async list(db: Executor, organizationId: string): Promise<SkillWithRoles[]> {
    const rows = await db('agent_skills as s')
      .leftJoin('agent_role_skills as b', 'b.skill_id', 's.id')
      .leftJoin('agent_roles as r', function () {
        this.on('r.id', '=', 'b.role_id').andOn('r.organization_id', '=', 's.organization_id');
      })
      .where('s.organization_id', organizationId)
      .select<Array<SkillRecord & { bound_role_id: string | null }>>(
        ...SKILL_COLUMNS.map((c) => `s.${c}`),
        'r.role_id as bound_role_id',
      );
    const skills = new Map<string, { record: SkillRecord; roleIds: Set<string> }>();
    for (const row of rows) {
      let skill = skills.get(row.id);
      if (!skill) {
        skill = { record: row, roleIds: new Set() };
        skills.set(row.id, skill);
      }
      if (row.bound_role_id !== null) skill.roleIds.add(row.bound_role_id);
    }
    return [...skills.values()].map(({ record, roleIds }) => ({
      skill: record,
      boundRoleIds: [...roleIds].sort(byCodeUnits),
    }));
  }

  /** One skill with the `roleId`s of the roles bound to it, sorted: one statement, as `list` makes each. */
  async findWithRoles(db: Executor, organizationId: string, name: string): Promise<SkillWithRoles | undefined> {
    const rows = await db('agent_skills as s')
      .leftJoin('agent_role_skills as b', 'b.skill_id', 's.id')
      .leftJoin('agent_roles as r', function () {
        this.on('r.id', '=', 'b.role_id').andOn('r.organization_id', '=', 's.organization_id');
      })
      .where({ 's.organization_id': organizationId, 's.name': name })
      .select<Array<SkillRecord & { bound_role_id: string | null }>>(
        ...SKILL_COLUMNS.map((c) => `s.${c}`),
        'r.role_id as bound_role_id',
      );
    const [first] = rows;
    if (!first) return undefined;
    const { bound_role_id: _, ...skill } = first;
    const boundRoleIds = rows.flatMap((row) => (row.bound_role_id === null ? [] : [row.bound_role_id]));
    return { skill, boundRoleIds: boundRoleIds.sort(byCodeUnits) };
  }

  async findByName(db: Executor, organizationId: string, name: string): Promise<SkillRecord | undefined> {
    return db('agent_skills')
      .where({ organization_id: organizationId, name })
      .first<SkillRecord | undefined>(...SKILL_COLUMNS);
  }

  /**
   * Creates the skill or replaces its content (version, digest, description), in one statement
   * that concurrent installs of the same name cannot both win: the row keeps its id, its
   * creation time and its disabled state. Returns the row as it now is; run it in one
   * transaction, so the row read back is the one this statement wrote.
   */
  async upsert(trx: Executor, content: SkillContent, at: string): Promise<SkillRecord> {
    await trx('agent_skills')
      .insert({
        id: randomUUID(),
        organization_id: content.organizationId,
        name: content.name,
        version: content.version,
        description: content.description,
        content_digest: content.contentDigest,
        disabled_at: null,
        library_folder_id: null,
        created_at: at,
        updated_at: at,
      })
      .onConflict(['organization_id', 'name'])
      .merge(['version', 'description', 'content_digest', 'updated_at']);
    return (await this.findByName(trx, content.organizationId, content.name))!;
  }

  /**
   * Applies a PATCH to the skill: a new description, its library folder, and/or the disabled state. Disabling keeps
   * the time of a disable already in force.
   */
  async update(
    trx: Executor,
    skillId: string,
    changes: { description?: string; disabled?: boolean; libraryFolderId?: string | null },
    at: string,
  ): Promise<void> {
    const values: Record<string, unknown> = { updated_at: at };
    if (changes.description !== undefined) values.description = changes.description;
    if (changes.libraryFolderId !== undefined) values.library_folder_id = changes.libraryFolderId;
    if (changes.disabled === true) values.disabled_at = trx.raw('coalesce(disabled_at, ?)', [at]);
    if (changes.disabled === false) values.disabled_at = null;
    await trx('agent_skills').where({ id: skillId }).update(values);
  }

  /**
   * Archives every open session, in the organization, of every role bound to the skill (a
   * session names its role by `roleId`). Returns how many were archived.
   */
  async archiveSessionsOfBoundRoles(
    trx: Executor,
    organizationId: string,
    skillId: string,
    at: string,
  ): Promise<number> {
    const boundRoleIds = trx('agent_role_skills as b')
      .join('agent_roles as r', 'r.id', 'b.role_id')
      .where('b.skill_id', skillId)
      .where('r.organization_id', organizationId)
      .select('r.role_id');
    return trx('agent_sessions')
      .where('organization_id', organizationId)
      .whereNull('archived_at')
      .whereIn('role_id', boundRoleIds)
      .update({ archived_at: at });
  }
}
