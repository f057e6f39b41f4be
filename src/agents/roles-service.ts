import { isDeepStrictEqual } from 'node:util';
import { recordChange } from '../audit/trail.js';
import type { Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { badRequest, conflict, notFound, unprocessable } from '../errors/api-error.js';
import { byCodeUnits } from '../shared/order.js';
import type { AgentModel } from '../config/models.js';
import { toAgentRoleRow } from './projection.js';
import type { AgentRoleStore, RoleDefinition, RoleWithSkills } from './roles-store.js';
import type { Schema } from '../api/types.js';

/** A role as `PUT /agent-roles/{roleId}` gives it: only the label is required. */
export type PutRoleInput = Schema<'PutAgentRoleRequest'>;

/** Checks that a library folder is an active one of the organization (404 `folder_not_found`). */
export type LibraryFolderCheck = (organizationId: string, folderId: string, trx: Executor) => Promise<unknown>;

/** Why the runtime may not run a session as a role. */
export class RoleUnavailableError extends Error {
  readonly code = 'role_unavailable';

  constructor(
    readonly reason: 'not_found' | 'disabled',
    message: string,
  ) {
    super(message);
    this.name = 'RoleUnavailableError';
  }
}

const roleNotFound = (roleId: string) => notFound('role_not_found', `No agent role "${roleId}" in this organization.`);

/** The `sort_order` column is a 32-bit integer on both databases. */
const SORT_ORDER_MIN = -2_147_483_648;
const SORT_ORDER_MAX = 2_147_483_647;

/**
 * Agent roles and the model picker. A PUT replaces a role's whole definition; at most one role
 * of an organization is the default; a role's default model is one of the picker's models; a
 * role's skills are existing skills of its organization.
 */
export class AgentRoleService {
  private readonly modelIds: ReadonlySet<string>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly roles: AgentRoleStore,
    private readonly modelList: readonly AgentModel[],
    private readonly clock: Clock,
    private readonly requireLibraryFolder: LibraryFolderCheck,
  ) {
    this.modelIds = new Set(modelList.map((model) => model.id));
  }

  /** The model picker, in the configured order. */
  models(): AgentModel[] {
    return this.modelList.map((model) => ({ ...model }));
  }

  list(organizationId: string): Promise<RoleWithSkills[]> {
    return this.roles.list(this.uow.executor, organizationId);
  }

  /**
   * Creates the role or replaces its definition; properties left out take their defaults and
   * skill bindings are kept. Making it the default first clears the flag on every other role,
   * in the same transaction, so the one-default index never sees two.
   */
  async put(organizationId: string, roleId: string, input: PutRoleInput): Promise<RoleWithSkills> {
    const definition = this.definitionOf(input);
    const at = this.clock.now().toISOString();
    return this.uow.run(async (trx) => {
      if (definition.libraryFolderId) await this.requireLibraryFolder(organizationId, definition.libraryFolderId, trx);
      if (definition.isDefault) await this.roles.lockOrganization(trx, organizationId);
      const current = await this.roles.find(trx, organizationId, roleId);
      if (definition.isDefault) {
        if (current?.role.disabled_at)
          throw conflict(
            'role_is_default',
            `The role "${roleId}" is disabled; enable it before making it the default.`,
          );
        await this.roles.clearDefaultExcept(trx, organizationId, roleId, at);
      }
      await this.roles.upsert(trx, organizationId, roleId, definition, at);
      const role = await this.roles.find(trx, organizationId, roleId);
      if (!role) throw new Error(`agent role ${roleId} is missing right after its upsert`);
      await recordRoleChange(trx, organizationId, roleId, current ?? null, role);
      return role;
    });
  }

  /**
   * `PATCH /agent-roles/{roleId}`: `disabled: true` sets `disabledAt` (a role already disabled
   * keeps its first time) and, in the same transaction, archives every open session that runs
   * as the role; `disabled: false` re-enables it (archived sessions stay archived). The default
   * role cannot be disabled (409 `role_is_default`). Answers the full row.
   */
  async setDisabled(organizationId: string, roleId: string, disabled: boolean): Promise<RoleWithSkills> {
    const at = this.clock.now().toISOString();
    return this.uow.run(async (trx) => {
      // The same lock as a PUT making a role the default, so the two cannot cross.
      await this.roles.lockOrganization(trx, organizationId);
      const current = await this.roles.find(trx, organizationId, roleId);
      if (!current) throw roleNotFound(roleId);
      if (disabled && current.role.is_default) {
        throw conflict(
          'role_is_default',
          `The role "${roleId}" is the organization's default role; make another role the default before disabling it.`,
        );
      }
      await this.roles.setDisabled(trx, organizationId, roleId, disabled, at);
      if (disabled) await this.roles.archiveOpenSessions(trx, organizationId, roleId, at);
      const changed = (await this.roles.find(trx, organizationId, roleId))!;
      await recordRoleChange(trx, organizationId, roleId, current, changed);
      return changed;
    });
  }

  /**
   * For the agent runtime: the role a new session runs as. A role that does not exist or is
   * disabled cannot be bound (RoleUnavailableError); the answer names only its enabled skills.
   */
  async resolveSessionRole(organizationId: string, roleId: string): Promise<RoleWithSkills> {
    const found = await this.roles.find(this.uow.executor, organizationId, roleId, { enabledSkillsOnly: true });
    if (!found) throw new RoleUnavailableError('not_found', `No agent role "${roleId}" in this organization.`);
    if (found.role.disabled_at !== null)
      throw new RoleUnavailableError('disabled', `The agent role "${roleId}" is disabled.`);
    return found;
  }

  /**
   * Replaces the set of skills bound to the role and returns the bound names, sorted and
   * without repeats. Every name must be a skill of the organization; a disabled skill counts
   * (it may stay bound, and the runtime skips it while it is disabled).
   */
  async putSkills(organizationId: string, roleId: string, skillNames: readonly string[]): Promise<string[]> {
    const names = [...new Set(skillNames)].sort(byCodeUnits);
    const at = this.clock.now().toISOString();
    return this.uow.run(async (trx) => {
      const touched = await this.roles.touch(trx, organizationId, roleId, at);
      if (!touched) throw roleNotFound(roleId);
      const roleKey = touched.id;
      const before = await this.roles.boundSkillNames(trx, roleKey);
      const skills = await this.roles.skillsNamed(trx, organizationId, names);
      const found = new Set(skills.map((skill) => skill.name));
      const missing = names.filter((name) => !found.has(name));
      if (missing.length > 0) {
        const list = missing.map((name) => `"${name}"`).join(', ');
        throw unprocessable(
          'unknown_skill',
          `Unknown skills (not installed in this organization): ${list}. Nothing was changed.`,
        );
      }
      await this.roles.replaceBindings(
        trx,
        roleKey,
        skills.map((skill) => skill.id),
        at,
      );
      const after = await this.roles.boundSkillNames(trx, roleKey);
      await recordRoleSkillsChange(trx, organizationId, { id: roleId, label: touched.label }, before, after);
      return after;
    });
  }

  /** The whole definition a PUT stands for, checked beyond what the contract's schema can say. */
  private definitionOf(input: PutRoleInput): RoleDefinition {
    const label = input.label.trim();
    if (!label)
      throw badRequest('A role label must not be blank.', [{ path: '/body/label', message: 'must not be blank' }]);
    const sortOrder = input.sortOrder ?? 0;
    if (sortOrder < SORT_ORDER_MIN || sortOrder > SORT_ORDER_MAX) {
      throw badRequest(`sortOrder must be between ${SORT_ORDER_MIN} and ${SORT_ORDER_MAX}.`, [
        { path: '/body/sortOrder', message: `must be between ${SORT_ORDER_MIN} and ${SORT_ORDER_MAX}` },
      ]);
    }
    const defaultModel = input.defaultModel ?? null;
    if (defaultModel !== null && !this.modelIds.has(defaultModel)) {
      throw unprocessable(
        'unknown_model',
        `"${defaultModel}" is not one of the models of /agent-models (${[...this.modelIds].join(', ')}).`,
      );
    }
    return {
      label,
      defaultModel,
      systemPrompt: input.systemPrompt ?? null,
      // A whitelist: a repeated name adds nothing, so it is kept once, where it first appears.
      tools: input.tools == null ? null : [...new Set(input.tools)],
      sortOrder,
      isDefault: input.isDefault ?? false,
      libraryFolderId: input.libraryFolderId,
    };
  }
}

/** The role's audit event, as `AgentRoleRow`; a call that leaves the role as the API showed it records none. */
async function recordRoleChange(
  trx: Executor,
  organizationId: string,
  roleId: string,
  before: RoleWithSkills | null,
  after: RoleWithSkills,
): Promise<void> {
  const shown = { before: before && toAgentRoleRow(before), after: toAgentRoleRow(after) };
  if (isDeepStrictEqual(shown.before, shown.after)) return;
  await recordChange(trx, {
    organizationId,
    target: { type: 'agent_role', id: roleId, label: after.role.label },
    ...shown,
  });
}

/** The audit event of the role's set of skills, as `putAgentRoleSkills` answers it; an unchanged set records none. */
async function recordRoleSkillsChange(
  trx: Executor,
  organizationId: string,
  role: { id: string; label: string },
  before: string[],
  after: string[],
): Promise<void> {
  if (isDeepStrictEqual(before, after)) return;
  await recordChange(trx, {
    organizationId,
    target: { type: 'agent_role_skills', id: role.id, label: role.label },
    before: { skillNames: before },
    after: { skillNames: after },
  });
}
