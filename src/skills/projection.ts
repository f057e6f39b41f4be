import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';
import type { SkillRecord, SkillWithRoles } from './store.js';

/** A skill's row with the `roleId`s of the roles bound to it, sorted. */
type SkillRow = SkillRecord & { bound_role_ids: string[] };

/** A skill as the API lists it; by name (unique in the organization). */
export const skillProjection = projection<SkillRow, Schema<'AgentSkillRow'>>()({
  fields: {
    id: 'id',
    name: 'name',
    version: 'version',
    description: 'description',
    contentDigest: 'content_digest',
    disabledAt: 'disabled_at',
    libraryFolderId: 'library_folder_id',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
    boundRoleIds: 'bound_role_ids',
  },
  order: [{ column: 'name', by: 'codeUnits' }],
});

/** The projection's row of a skill with its roles. */
export const skillRowOf = ({ skill, boundRoleIds }: SkillWithRoles): SkillRow => ({
  ...skill,
  bound_role_ids: boundRoleIds,
});

/** A skill with its roles as the API shows it. */
export const toAgentSkillRow = (skill: SkillWithRoles) => skillProjection.toApi(skillRowOf(skill));

/** What an install answers of the skill it wrote. */
export const installedSkillProjection = projection<SkillRecord, Schema<'InstalledSkillResult'>>()({
  fields: { id: 'id', name: 'name', contentDigest: 'content_digest' },
});

/**
 * A stored file as UTF-8 text. Inspection admitted only valid UTF-8, so the text is exactly the
 * stored bytes (a byte order mark included: Buffer#toString keeps it).
 */
export const toSkillFileEntry = (file: { path: string; bytes: Uint8Array }): Schema<'SkillFileEntry'> => ({
  path: file.path,
  content: Buffer.from(file.bytes).toString('utf8'),
});
