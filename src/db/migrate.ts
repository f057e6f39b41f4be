import type { Knex } from 'knex';
import type { Db } from './connect.js';
import * as identity from './migrations/20261122000000_identity.js';
import * as structure from './migrations/20261122010000_structure.js';
import * as connections from './migrations/20261122020000_connections.js';
import * as capacity from './migrations/20261122030000_capacity.js';
import * as readIndexes from './migrations/20261122040000_read_indexes.js';
import * as agents from './migrations/20261122050000_agents.js';
import * as agentLibrary from './migrations/20261123100000_agent_library.js';
import * as capabilityConnections from './migrations/20261123110000_capability_connections.js';
import * as usageFacts from './migrations/20261123120000_usage_facts.js';
import * as apiTokensAndAudit from './migrations/20261123130000_api_tokens_and_audit.js';
import * as sharedInstances from './migrations/20261123000000_shared_instances.js';
import * as bindingOrganization from './migrations/20261123140000_binding_organization.js';
import * as usageWritePath from './migrations/20261124000000_usage_write_path.js';
import * as projectNameOrder from './migrations/20261124100000_project_name_order.js';
import * as signIn from './migrations/20261127000000_sign_in.js';
import * as invitations from './migrations/20261128000000_invitations.js';
import * as autoJoin from './migrations/20261128010000_auto_join.js';
import * as membershipProfile from './migrations/20261128020000_membership_profile.js';
import * as webhooks from './migrations/20261128030000_webhooks.js';
import * as clientRequestId from './migrations/20261128040000_client_request_id.js';
import * as budgets from './migrations/20261128070000_budgets.js';
import * as usageRollups from './migrations/20261128090000_usage_rollups.js';
import * as auditReadable from './migrations/20261128100000_audit_readable.js';
import * as usageNarrowRollups from './migrations/20261128120000_usage_narrow_rollups.js';
import * as linkingAuthority from './migrations/20261201100000_linking_authority.js';
import * as verifiedDomains from './migrations/20261201200000_verified_domains.js';
import * as runAgentKeys from './migrations/20261201400000_run_agent_keys.js';
import * as runInitiators from './migrations/20261202100000_run_initiators.js';
import * as serviceAccounts from './migrations/20261202200000_service_accounts.js';
import * as lifecycle from './migrations/20261202300000_lifecycle.js';
import * as sessionsAndAccessRequests from './migrations/20261202400000_sessions_and_access_requests.js';
import * as companySignIn from './migrations/20261202500000_company_sign_in.js';
import * as usagePolicies from './migrations/20261203100000_usage_policies.js';
import * as budgetEnforcement from './migrations/20261203110000_budget_enforcement.js';
import * as runtimeApi from './migrations/20261203200000_runtime_api.js';
import * as spendByAccountAndMember from './migrations/20261203300000_spend_by_account_and_member.js';
import * as companyOnboarding from './migrations/20261203400000_company_onboarding.js';

/**
 * Migrations are imported statically rather than discovered on disk, so the same list runs
 * under tsx, vitest and a bundler alike. Append new migrations; never edit a landed one.
 */
const migrations: Record<string, Knex.Migration> = {
  '20261122000000_identity': identity,
  '20261122010000_structure': structure,
  '20261122020000_connections': connections,
  '20261122030000_capacity': capacity,
  '20261122040000_read_indexes': readIndexes,
  '20261122050000_agents': agents,
  '20261123000000_shared_instances': sharedInstances,
  '20261123100000_agent_library': agentLibrary,
  '20261123110000_capability_connections': capabilityConnections,
  '20261123120000_usage_facts': usageFacts,
  '20261123130000_api_tokens_and_audit': apiTokensAndAudit,
  '20261123140000_binding_organization': bindingOrganization,
  '20261124000000_usage_write_path': usageWritePath,
  '20261124100000_project_name_order': projectNameOrder,
  '20261127000000_sign_in': signIn,
  '20261128000000_invitations': invitations,
  '20261128010000_auto_join': autoJoin,
  '20261128020000_membership_profile': membershipProfile,
  '20261128030000_webhooks': webhooks,
  '20261128040000_client_request_id': clientRequestId,
  '20261128070000_budgets': budgets,
  '20261128090000_usage_rollups': usageRollups,
  '20261128100000_audit_readable': auditReadable,
  '20261128120000_usage_narrow_rollups': usageNarrowRollups,
  '20261201100000_linking_authority': linkingAuthority,
  '20261201200000_verified_domains': verifiedDomains,
  '20261201400000_run_agent_keys': runAgentKeys,
  '20261202100000_run_initiators': runInitiators,
  '20261202200000_service_accounts': serviceAccounts,
  '20261202300000_lifecycle': lifecycle,
  '20261202400000_sessions_and_access_requests': sessionsAndAccessRequests,
  '20261202500000_company_sign_in': companySignIn,
  '20261203100000_usage_policies': usagePolicies,
  '20261203110000_budget_enforcement': budgetEnforcement,
  '20261203200000_runtime_api': runtimeApi,
  '20261203300000_spend_by_account_and_member': spendByAccountAndMember,
  '20261203400000_company_onboarding': companyOnboarding,
};

const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name]!,
};

/** Applies every pending migration; returns the names applied by this call. */
export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

/** Migrations this code knows that the database has not applied yet (empty when the schema is current). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const [, pending] = (await db.migrate.list({ migrationSource })) as [unknown[], Array<string | { file: string }>];
  return pending.map((entry) => (typeof entry === 'string' ? entry : entry.file));
}

/**
 * Undoes one applied migration, by name (later ones stay applied): for tests of what a migration
 * does to existing rows.
 */
export async function rollBack(db: Db, name: string): Promise<void> {
  await db.migrate.down({ migrationSource, name });
}

export async function rollbackAll(db: Db): Promise<void> {
  await db.migrate.rollback({ migrationSource }, true);
}
