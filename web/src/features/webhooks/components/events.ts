/**
 * What the events picker offers: the wildcards and the changes admins most often want told of.
 * Any other operationId that changes state (or `hub.<command>`) may be typed in; the service
 * refuses what no change can be.
 */
export const EVENT_SUGGESTIONS = [
  '*',
  'hub.*',
  'budget.threshold',
  'addMember',
  'updateMemberRole',
  'revokeMember',
  'createInvitation',
  'acceptInvitation',
  'createTeam',
  'updateTeam',
  'archiveTeam',
  'addTeamMember',
  'revokeTeamMember',
  'createProject',
  'renameProject',
  'moveProject',
  'archiveProject',
  'putProjectTeamAccess',
  'deleteProjectTeamAccess',
  'rotateProviderConnection',
  'disableProviderConnection',
  'updateCapacityPolicy',
  'createApiToken',
  'revokeApiToken',
  'signOutMember',
  'createAccessRequest',
  'approveAccessRequest',
  'denyAccessRequest',
  'withdrawAccessRequest',
  'webhook.disabled',
];
