/**
 * The sentence an audit event reads as ("Dana changed Eli's role from MEMBER to ADMIN"), made
 * when the event is read from what it stored: the actor's name, the action, the target's label
 * and the changes. Events written before labels were kept still get a sentence, naming their
 * target by its kind ("a member").
 *
 * One template per action the service writes: every mutating operation of the contract, the
 * host console's commands (`hub.<command>`) and the service's own actions. An action without
 * one fails test/audit/summary.test.ts.
 */

/** What a template reads: the stored fields of one event. */
export interface SummaryInput {
  actor: { type: string; displayName: string };
  action: string;
  target: { type: string; id: string | null; label: string | null };
  changes: { before: unknown; after: unknown };
}

interface Facts {
  /** Who acted, as stored. */
  who: string;
  /** The target's stored name, else its kind with an article ("a member"). */
  what: string;
  /** Whether `what` is a stored name (else the kind, which needs no noun before it). */
  named: boolean;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

type Template = (facts: Facts) => string;

/** How a target with no stored name is spoken of: its kind. */
const KIND: Record<string, string> = {
  member: 'a member',
  identity: 'an identity provider',
  team: 'a team',
  team_member: 'a team member',
  folder: 'a folder',
  agent_library_folder: 'a library folder',
  project: 'a project',
  project_binding: 'a project',
  project_team_access: "a team's access",
  project_manager: 'a project',
  provider_connection: 'a provider',
  chat_application_connection: 'the chat application',
  capability_connection: 'a capability',
  capacity_policy: 'the capacity limits',
  agent_role: 'an agent role',
  agent_role_skills: 'an agent role',
  agent_skill: 'a skill',
  api_token: 'an API token',
  service_account: 'a service account',
  webhook: 'a webhook',
  webhook_delivery: 'a delivery',
  budget: 'a budget',
  usage_policy: 'a usage policy',
  invitation: 'an invitation',
  domain: 'a domain',
  identity_provider: 'an identity provider',
  organization: 'an organization',
  organization_settings: 'the organization settings',
  ownership_transfer: 'an ownership transfer',
  usage: 'usage',
};

const field = (object: Record<string, unknown>, key: string): string => {
  const value = object[key];
  return value === null || value === undefined ? 'none' : String(value);
};

/** Whose allowance a per-member budget's threshold is (" for Ann"), nothing for a shared pool. */
const allowanceOf = (member: unknown): string =>
  member && typeof member === 'object' ? ` for ${field(member as Record<string, unknown>, 'displayName')}` : '';

/** Which provider and group a directory change came from ("Okta, group eng"; no group: "Okta"). */
const viaGroup = (side: Record<string, unknown>) =>
  side.group
    ? `${field(side, 'providerLabel')}, group ${field(side, 'group')}`
    : `${field(side, 'providerLabel')}, no mapped group`;

/** "X's", or "a member's" for a target known only by its kind. */
const possessive = (name: string) => (name.endsWith('s') ? `${name}'` : `${name}'s`);

/** The capacity dimensions whose organization limit the change moved, by name. */
function changedDimensions({ before, after }: Facts): string {
  type Row = { dimension?: unknown; organizationLimit?: unknown };
  const rows = (side: Record<string, unknown>) => (Array.isArray(side.dimensions) ? (side.dimensions as Row[]) : []);
  const was = new Map(rows(before).map((row) => [row.dimension, row.organizationLimit]));
  const moved = rows(after).filter((row) => was.get(row.dimension) !== row.organizationLimit);
  return moved.length === 0 ? '' : ` (${moved.map((row) => String(row.dimension)).join(', ')})`;
}

/** The person an access request is from, as its event recorded them. */
const requesterOf = ({ after }: Facts): string => {
  const requester = objectOf(after.requester);
  return typeof requester.displayName === 'string' ? requester.displayName : 'a member';
};

/** "renamed X to Y" when the name changed, else "updated X". */
const renamedOr =
  (noun: string, key = 'name'): Template =>
  (f) =>
    f.before[key] !== undefined && f.before[key] !== f.after[key]
      ? `${f.who} renamed ${noun} ${field(f.before, key)} to ${field(f.after, key)}`
      : `${f.who} updated ${f.named ? `${noun} ` : ''}${f.what}`;

/** "Dana <verb> <noun> <target>": the shape most actions read as. */
const did =
  (verb: string, noun = ''): Template =>
  (f) =>
    `${f.who} ${verb} ${noun && f.named ? `${noun} ` : ''}${f.what}`;

const loadedRuns: Template = (f) => `${f.who} loaded ${field(f.after, 'runs')} agent runs`;

/** The actions every event can be, with their sentence. */
export const SUMMARY_TEMPLATES: Readonly<Record<string, Template>> = {
  ingestUsageRuns: loadedRuns,
  // Never recorded: a resolve changes nothing (and its answer is a secret); named all the same.
  resolveRuntimeCredential: (f) => `${f.who} resolved the credentials of ${f.what}`,
  acceptMyInvitation: (f) => `${f.who} accepted ${f.what} and joined as ${field(f.after, 'role')}`,
  acceptInvitation: (f) => `${f.who} accepted ${f.what} and joined as ${field(f.after, 'role')}`,
  logout: (f) => `${f.who} signed out`,
  updateOrgSettings: did('changed'),
  renameOrganization: (f) =>
    f.before.slug !== f.after.slug
      ? `${f.who} renamed the organization ${field(f.before, 'name')} (${field(f.before, 'slug')}) ` +
        `to ${field(f.after, 'name')} (${field(f.after, 'slug')})`
      : `${f.who} renamed the organization ${field(f.before, 'name')} to ${field(f.after, 'name')}`,
  deleteOrganization: (f) =>
    `${f.who} deleted the organization ${f.what}; it is purged at ${field(f.after, 'purgeAt')}`,
  restoreOrganization: did('restored the organization'),
  createOwnershipTransfer: (f) => `${f.who} offered the ownership of the organization to ${f.what}`,
  acceptOwnershipTransfer: (f) => `${f.who} accepted the ownership of the organization`,
  cancelOwnershipTransfer: (f) => `${f.who} cancelled the ownership transfer to ${f.what}`,
  leaveOrganization: (f) => `${f.who} left the organization`,
  addMember: (f) => `${f.who} added ${f.what} as ${field(f.after, 'role')}`,
  updateMemberRole: (f) =>
    `${f.who} changed ${possessive(f.what)} role from ${field(f.before, 'role')} to ${field(f.after, 'role')}`,
  revokeMember: did('removed', 'member'),
  createInvitation: (f) => `${f.who} invited ${f.what} as ${field(f.after, 'role')}`,
  revokeInvitation: did('revoked the invitation of'),
  createTeam: did('created', 'team'),
  updateTeam: renamedOr('team'),
  archiveTeam: did('archived', 'team'),
  addTeamMember: did('added team member'),
  revokeTeamMember: did('removed team member'),
  createFolder: did('created', 'folder'),
  updateFolder: renamedOr('folder'),
  archiveFolder: did('archived', 'folder'),
  createProject: did('created', 'project'),
  renameProject: renamedOr('project'),
  moveProject: did('moved', 'project'),
  archiveProject: did('archived', 'project'),
  archiveProjectBinding: (f) => `${f.who} unbound the chat of project ${f.what}`,
  putProjectTeamAccess: (f) => `${f.who} gave ${f.what} the role ${field(f.after, 'role')}`,
  deleteProjectTeamAccess: (f) => `${f.who} removed the access of ${f.what}`,
  rotateProviderConnection: did('set the credentials of provider'),
  disableProviderConnection: did('disabled', 'provider'),
  putChatApplicationConnection: did('set the credentials of'),
  disableChatApplicationConnection: did('disabled'),
  putCapabilityConnection: did('set up', 'capability'),
  disableCapabilityConnection: did('disabled', 'capability'),
  updateCapacityPolicy: (f) => `${f.who} changed the capacity limits${changedDimensions(f)}`,
  putAgentRole: (f) => `${f.who} ${Object.keys(f.before).length === 0 ? 'created' : 'replaced'} agent role ${f.what}`,
  updateAgentRole: did('updated', 'agent role'),
  putAgentRoleSkills: did('changed the skills of agent role'),
  installAgentSkill: did('installed', 'skill'),
  updateAgentSkill: did('updated', 'skill'),
  createAgentLibraryFolder: did('created', 'library folder'),
  updateAgentLibraryFolder: renamedOr('library folder'),
  archiveAgentLibraryFolder: did('archived', 'library folder'),
  createApiToken: did('created', 'API token'),
  revokeApiToken: did('revoked', 'API token'),
  rotateApiToken: did('rotated', 'API token'),
  createServiceAccount: did('created', 'service account'),
  updateServiceAccount: renamedOr('service account'),
  disableServiceAccount: did('disabled', 'service account'),
  enableServiceAccount: did('enabled', 'service account'),
  deleteServiceAccount: did('deleted', 'service account'),
  createWebhook: did('added a webhook to'),
  updateWebhook: did('updated the webhook to'),
  deleteWebhook: did('deleted the webhook to'),
  addDomain: did('added the domain'),
  verifyDomain: did('verified the domain'),
  deleteDomain: did('removed the domain'),
  updateDomain: (f) =>
    f.after.enforceSso
      ? `${f.who} required sign-in through ${field(objectOf(f.after.enforceSso), 'providerId')} for ${f.what}`
      : `${f.who} stopped requiring a sign-in for ${f.what}`,
  createOrgIdentityProvider: did('connected the identity provider'),
  updateOrgIdentityProvider: did('changed the identity provider'),
  deleteOrgIdentityProvider: did('removed the identity provider'),
  testOrgIdentityProvider: did('started a test sign-in through the identity provider'),
  'directory.test_result': (f) =>
    `${f.who} read what ${f.what} sent for ${field(f.after, 'email')} in a test sign-in (nothing was changed)`,
  rotateWebhookSecret: did('rotated the secret of the webhook to'),
  testWebhook: (f) => `${f.who} sent a test delivery (${f.what})`,
  redeliverWebhookDelivery: (f) => `${f.who} redelivered ${f.what}`,
  signOutMember: (f) => `${f.who} signed ${f.what} out everywhere`,
  // The person's own name and sessions are in no organization's log; their templates are for completeness.
  updateMe: (f) => `${f.who} changed their name`,
  revokeMySession: (f) => `${f.who} ended one of their sessions`,
  revokeOtherSessions: (f) => `${f.who} ended their other sessions`,
  createAccessRequest: (f) => `${f.who} asked for ${field(f.after, 'level')} on ${f.what}`,
  approveAccessRequest: (f) =>
    `${f.who} gave ${requesterOf(f)} ${field(f.after, 'grantedLevel')} on ${f.what}, as they asked`,
  denyAccessRequest: (f) =>
    `${f.who} denied ${possessive(requesterOf(f))} request for ${field(f.after, 'level')} on ${f.what}`,
  withdrawAccessRequest: (f) => `${f.who} withdrew their request for ${field(f.after, 'level')} on ${f.what}`,
  createBudget: did('created', 'budget'),
  updateBudget: renamedOr('budget'),
  deleteBudget: did('deleted', 'budget'),
  createPolicy: did('set the usage policy of'),
  updatePolicy: did('changed the usage policy of'),
  deletePolicy: did('removed the usage policy of'),

  autoJoin: (f) => `${f.who} added ${f.what} as ${field(f.after, 'role')}`,
  connectIdentity: (f) => `${f.who} connected a sign-in through ${f.what}`,
  removeMyIdentity: (f) => `${f.who} removed their sign-in through ${f.what}`,
  'apiToken.sweep': (f) => `${f.who} revoked API token ${f.what}: expired or unused past the policy's limit`,
  'directory.join': (f) => `${f.who} added ${f.what} as ${field(f.after, 'role')} (${viaGroup(f.after)})`,
  'directory.role': (f) =>
    `${f.who} changed ${possessive(f.what)} role from ${field(f.before, 'role')} to ${field(f.after, 'role')} ` +
    `(${viaGroup(f.after)})`,
  'directory.leave': (f) => `${f.who} removed ${f.what} (${viaGroup(f.before)})`,
  'directory.team_add': (f) => `${f.who} added ${f.what} (${viaGroup(f.after)})`,
  'directory.team_remove': (f) => `${f.who} removed ${f.what} (${viaGroup(f.before)})`,
  'directory.overage': (f) =>
    `${f.who} left ${possessive(f.what)} role and teams unchanged: ` +
    `${field(f.after, 'providerLabel')} sent no groups (overage)`,
  'organization.owner_claim': (f) =>
    `${f.who} made ${f.what} the OWNER: the first sign-in of ${field(f.after, 'email')} ` +
    `through ${field(f.after, 'providerId')}, as the host console set up`,
  'session.break_glass': (f) => `${f.who} issued a break-glass login link for ${f.what}`,
  'budget.threshold': (f) =>
    `${f.who}: budget ${f.what} reached ${field(f.after, 'threshold')} %${allowanceOf(f.after.member)}`,
  'webhook.disabled': (f) => `${f.who} disabled the webhook to ${f.what}: its receiver answered 410 Gone`,

  'hub.org.create': did('created', 'organization'),
  'hub.usage.ingest': loadedRuns,
  'hub.usage.rebuild-rollups': (f) => `${f.who} rebuilt the usage rollups`,
  'hub.project.force_release': (f) => `${f.who} gave ${field(f.after, 'manager')} MANAGE on project ${f.what}`,
  'hub.project.bind': (f) => `${f.who} bound chat ${field(f.after, 'chatId')} to project ${f.what}`,
  'hub.connection.platform': did('set the platform credentials of provider'),
  'hub.capacity.clear': (f) => `${f.who} lifted a capacity limit${changedDimensions(f)}`,
  'hub.skill.install': did('installed', 'skill'),
  'hub.token.create': did('created', 'API token'),
  'hub.service-account.create': did('created', 'service account'),
  'hub.service-account.token': did('created', 'API token'),
  'hub.domain.verify': did('verified the domain'),
  'hub.invite': (f) => `${f.who} invited ${f.what} as ${field(f.after, 'role')}`,
};

const objectOf = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The event's sentence, from its stored fields. */
export function summarize(event: SummaryInput): string {
  // An action without a template (a console command added later) is named as it is stored.
  const command = event.action.startsWith('hub.') ? `hub ${event.action.slice(4).replaceAll('.', ' ')}` : event.action;
  const template = SUMMARY_TEMPLATES[event.action] ?? ((f: Facts) => `${f.who} ran ${command} on ${f.what}`);
  return template({
    who: event.actor.displayName,
    what: event.target.label ?? KIND[event.target.type] ?? `a ${event.target.type.replaceAll('_', ' ')}`,
    named: event.target.label !== null,
    before: objectOf(event.changes.before),
    after: objectOf(event.changes.after),
  });
}
