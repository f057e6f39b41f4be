import type { OperationModule } from './operation-table.js';

/**
 * Operations whose handlers are not built yet. Each already declares its rule, so the caller
 * is authenticated and authorized before the 501 `not_implemented` answer. An entry moves to
 * its feature module's operations when the handler lands; this table shrinks to empty.
 */
export const pendingOperations: OperationModule = {
  listProviderConnections: { rule: 'orgAdmin' },
  rotateProviderConnection: { rule: 'orgAdmin' },
  getChatApplicationConnection: { rule: 'orgAdmin' },
  putChatApplicationConnection: { rule: 'orgAdmin' },
  disableChatApplicationConnection: { rule: 'orgAdmin' },
  getCapacityPolicy: { rule: 'orgAdmin' },
  updateCapacityPolicy: { rule: 'orgAdmin' },
  listAgentRoles: { rule: 'orgAdmin' },
  putAgentRole: { rule: 'orgAdmin' },
  putAgentRoleSkills: { rule: 'orgAdmin' },
  listAgentSkills: { rule: 'orgAdmin' },
  getAgentSkillFiles: { rule: 'orgAdmin' },
  installAgentSkill: { rule: 'orgAdmin' },
  updateAgentSkill: { rule: 'orgAdmin' },
  listAgentModels: { rule: 'orgAdmin' },
};
