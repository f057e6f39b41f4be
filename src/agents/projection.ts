import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';
import type { RoleRecord, RoleWithSkills } from './roles-store.js';

/** A role's row with the names of the skills bound to it, sorted. */
type RoleRow = RoleRecord & { skill_names: string[] };

/**
 * A role as the API shows it: booleans and numbers as the engines differ in handing them back,
 * tools parsed; by ascending sortOrder, then label as people read it, then roleId.
 */
export const roleProjection = projection<RoleRow, Schema<'AgentRoleRow'>>()({
  fields: {
    id: 'id',
    roleId: 'role_id',
    label: 'label',
    defaultModel: 'default_model',
    systemPrompt: 'system_prompt',
    tools: { column: 'tools', as: (tools) => (tools === null ? null : parseTools(tools)) },
    sortOrder: { column: 'sort_order', as: Number },
    isDefault: { column: 'is_default', as: Boolean },
    disabledAt: 'disabled_at',
    libraryFolderId: 'library_folder_id',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
    skillNames: 'skill_names',
  },
  order: [
    { column: 'sort_order', by: 'number' },
    { column: 'label', by: 'name' },
    { column: 'role_id', by: 'codeUnits' },
  ],
});

/** The projection's row of a role with its skills. */
export const roleRowOf = ({ role, skillNames }: RoleWithSkills): RoleRow => ({ ...role, skill_names: skillNames });

/** A role with its skills as the API shows it. */
export const toAgentRoleRow = (role: RoleWithSkills) => roleProjection.toApi(roleRowOf(role));

/** The stored tool list; only the role store writes it, so anything but an array of strings is a bug. */
function parseTools(text: string): string[] {
  const tools: unknown = JSON.parse(text);
  if (!Array.isArray(tools) || !tools.every((tool) => typeof tool === 'string')) {
    throw new Error('agent_roles.tools holds something other than a JSON array of strings');
  }
  return tools;
}
