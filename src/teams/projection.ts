import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';
import type { TeamProjectRecord } from '../grants/store.js';
import type { TeamMemberRecord, TeamNameRecord, TeamRecord } from './store.js';

/** A team as the API shows it; by name as people read it, then slug (unique among active teams). */
export const teamProjection = projection<TeamRecord, Schema<'TeamRow'>>()({
  fields: {
    id: 'id',
    slug: 'slug',
    name: 'name',
    description: 'description',
    memberCount: { column: 'member_count', as: Number },
    createdAt: 'created_at',
  },
  order: [
    { column: 'name', by: 'name' },
    { column: 'slug', by: 'codeUnits' },
  ],
});

/** A team's member; by display name as people read it, then imOpenId. */
export const teamMemberProjection = projection<TeamMemberRecord, Schema<'TeamMemberRow'>>()({
  fields: {
    userId: 'user_id',
    imOpenId: 'im_open_id',
    displayName: 'display_name',
    createdAt: 'created_at',
  },
  order: [
    { column: 'display_name', by: 'name' },
    { column: 'im_open_id', by: 'codeUnits' },
  ],
});

/** A team's grant on a project; by project name as people read it, then project id. */
export const teamProjectProjection = projection<TeamProjectRecord, Schema<'TeamProjectEntry'>>()({
  fields: {
    projectId: 'project_id',
    projectName: 'project_name',
    folderId: 'folder_id',
    role: 'role',
    grantId: 'grant_id',
  },
  order: [
    { column: 'project_name', by: 'name' },
    { column: 'project_id', by: 'codeUnits' },
  ],
});

/** A team by name only: a member's own teams, and the teams a MANAGE holder may grant access to. */
export const teamNameProjection = projection<TeamNameRecord, Schema<'MyTeam'>>()({
  fields: { id: 'id', slug: 'slug', name: 'name' },
});
