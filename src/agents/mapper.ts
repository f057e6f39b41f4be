import type { Schema } from '../http/operation-types.js';
import type { RoleWithSkills } from './roles-store.js';

/** A role as the API shows it: booleans and numbers as the engines differ in handing them back, tools parsed. */
export const toAgentRoleRow = ({ role, skillNames }: RoleWithSkills): Schema<'AgentRoleRow'> => ({
  id: role.id,
  roleId: role.role_id,
  label: role.label,
  defaultModel: role.default_model,
  systemPrompt: role.system_prompt,
  tools: role.tools === null ? null : parseTools(role.tools),
  sortOrder: Number(role.sort_order),
  isDefault: Boolean(role.is_default),
  disabledAt: role.disabled_at,
  libraryFolderId: role.library_folder_id,
  createdAt: role.created_at,
  updatedAt: role.updated_at,
  skillNames,
});

/** The stored tool list; only the role store writes it, so anything but an array of strings is a bug. */
function parseTools(text: string): string[] {
  const tools: unknown = JSON.parse(text);
  if (!Array.isArray(tools) || !tools.every((tool) => typeof tool === 'string')) {
    throw new Error('agent_roles.tools holds something other than a JSON array of strings');
  }
  return tools;
}
