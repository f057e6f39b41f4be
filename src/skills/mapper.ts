import type { Schema } from '../http/operation-types.js';
import type { SkillRecord, SkillWithRoles } from './store.js';

export const toAgentSkillRow = ({ skill, boundRoleIds }: SkillWithRoles): Schema<'AgentSkillRow'> => ({
  id: skill.id,
  name: skill.name,
  version: skill.version,
  description: skill.description,
  contentDigest: skill.content_digest,
  disabledAt: skill.disabled_at,
  libraryFolderId: skill.library_folder_id,
  createdAt: skill.created_at,
  updatedAt: skill.updated_at,
  boundRoleIds,
});

export const toInstalledSkillResult = (skill: SkillRecord): Schema<'InstalledSkillResult'> => ({
  id: skill.id,
  name: skill.name,
  contentDigest: skill.content_digest,
});

/**
 * A stored file as UTF-8 text. Inspection admitted only valid UTF-8, so the text is exactly the
 * stored bytes (a byte order mark included: Buffer#toString keeps it).
 */
export const toSkillFileEntry = (file: { path: string; bytes: Uint8Array }): Schema<'SkillFileEntry'> => ({
  path: file.path,
  content: Buffer.from(file.bytes).toString('utf8'),
});
