import { ENVELOPE_COLUMNS, envelopeColumns, envelopeOfColumns } from '../crypto/envelope-columns.js';
import type { Envelope } from '../crypto/envelope.js';
import type { KeyUsage } from '../crypto/keyring.js';
import { sealedKeyUsage } from '../db/sealed-key-usage.js';
import type { Executor } from '../db/unit-of-work.js';

export const PROVIDER_KINDS = ['oidc', 'lark'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export const TOKEN_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;
export type TokenAuthMethod = (typeof TOKEN_AUTH_METHODS)[number];

/** A provider's settings, as `hub identity-provider set` checks them (src/identity/provider-settings.ts). */
export interface ProviderSettings {
  id: string;
  kind: ProviderKind;
  label: string;
  /** The OpenID issuer (oidc), or the platform's API base URL (lark). */
  endpoint: string;
  clientId: string;
  subjectClaim: string;
  tokenAuth: TokenAuthMethod;
  allowedTenants: string[];
  /**
   * `--email-domains`: the domains whose addresses the provider speaks for. When set, only
   * accounts with a verified address there may sign in; and only an address there counts as
   * verified for invitations and automatic membership (src/identity/vouching.ts).
   */
  allowedEmailDomains: string[];
  /**
   * Whether this provider speaks for the imOpenId namespace: its first sign-in of a subject joins
   * the user whose imOpenId is that subject. At most one enabled provider does.
   */
  linksImOpenId: boolean;
}

/** A role a directory group may give: never OWNER. */
export type MappedRole = 'ADMIN' | 'MEMBER';

/** One directory group and what it gives: a team of the organization, a role, or both. */
export interface GroupMapping {
  group: string;
  teamId?: string;
  role?: MappedRole;
}

/**
 * What an organization's provider decides at each sign-in through it (src/directory/): the claim
 * holding the directory's groups, what each group gives, the role of someone in no mapped group
 * (null: none), and whether such a person may sign in at all. The operator's providers keep the
 * defaults and decide nothing.
 */
export interface DirectorySettings {
  /** The organization whose admins configured the provider; null for the operator's. */
  organizationId: string | null;
  groupsClaim: string;
  mappings: GroupMapping[];
  defaultRole: 'MEMBER' | null;
  requireGroup: boolean;
}

/** The directory settings of an operator's provider. */
export const NO_DIRECTORY: DirectorySettings = {
  organizationId: null,
  groupsClaim: 'groups',
  mappings: [],
  defaultRole: null,
  requireGroup: false,
};

/** An identity provider as configured: its settings and its secret's bookkeeping, without the sealed secret. */
export interface IdentityProvider extends ProviderSettings, DirectorySettings {
  secretVersion: number;
  keyId: string;
  disabledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What `set` writes: the settings and the envelope of the client secret. */
export type ProviderWrite = ProviderSettings &
  Partial<DirectorySettings> &
  Pick<IdentityProvider, 'secretVersion'> &
  Partial<Pick<IdentityProvider, 'disabledAt'>> & {
    envelope: Envelope;
  };

interface ProviderRecord {
  id: string;
  kind: string;
  label: string;
  endpoint: string;
  client_id: string;
  subject_claim: string;
  token_auth: string;
  allowed_tenants: string;
  allowed_email_domains: string;
  links_im_open_id: boolean | number;
  organization_id: string | null;
  groups_claim: string;
  mappings: string;
  default_role: string | null;
  require_group: boolean | number;
  secret_version: number;
  key_id: string;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
}

const SETTINGS_COLUMNS = [
  'id',
  'kind',
  'label',
  'endpoint',
  'client_id',
  'subject_claim',
  'token_auth',
  'allowed_tenants',
  'allowed_email_domains',
  'links_im_open_id',
  'organization_id',
  'groups_claim',
  'mappings',
  'default_role',
  'require_group',
  'secret_version',
  'key_id',
  'disabled_at',
  'created_at',
  'updated_at',
] as const;

const toProvider = (row: ProviderRecord): IdentityProvider => ({
  id: row.id,
  kind: row.kind as ProviderKind,
  label: row.label,
  endpoint: row.endpoint,
  clientId: row.client_id,
  subjectClaim: row.subject_claim,
  tokenAuth: row.token_auth as TokenAuthMethod,
  allowedTenants: JSON.parse(row.allowed_tenants) as string[],
  allowedEmailDomains: JSON.parse(row.allowed_email_domains) as string[],
  linksImOpenId: Boolean(row.links_im_open_id),
  organizationId: row.organization_id,
  groupsClaim: row.groups_claim,
  mappings: JSON.parse(row.mappings) as GroupMapping[],
  defaultRole: row.default_role === 'MEMBER' ? 'MEMBER' : null,
  requireGroup: Boolean(row.require_group),
  secretVersion: Number(row.secret_version),
  keyId: row.key_id,
  disabledAt: row.disabled_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/**
 * The identity providers the operator and organizations configured. Owns every statement on
 * `identity_providers`.
 */
export class IdentityProviderStore {
  /** The operator's providers (no organization's), by id. */
  async list(db: Executor): Promise<IdentityProvider[]> {
    const rows = await db('identity_providers')
      .whereNull('organization_id')
      .select<ProviderRecord[]>(SETTINGS_COLUMNS)
      .orderBy('id');
    return rows.map(toProvider);
  }

  /** One organization's providers, by id. */
  async listOfOrganization(db: Executor, organizationId: string): Promise<IdentityProvider[]> {
    const rows = await db('identity_providers')
      .where({ organization_id: organizationId })
      .select<ProviderRecord[]>(SETTINGS_COLUMNS)
      .orderBy('id');
    return rows.map(toProvider);
  }

  /** Removes an organization's provider (its identities and pending sign-ins go with it); false when none. */
  async delete(db: Executor, organizationId: string, id: string): Promise<boolean> {
    return (await db('identity_providers').where({ id, organization_id: organizationId }).delete()) === 1;
  }

  /** Enables an organization's provider again. */
  async enable(db: Executor, id: string, at: string): Promise<void> {
    await db('identity_providers').where({ id }).update({ disabled_at: null, updated_at: at });
  }

  async find(db: Executor, id: string): Promise<IdentityProvider | undefined> {
    const row = await db('identity_providers').where({ id }).first<ProviderRecord | undefined>(SETTINGS_COLUMNS);
    return row && toProvider(row);
  }

  /** The provider's client-secret envelope, for the one moment a sign-in needs it. */
  async findEnvelope(db: Executor, id: string): Promise<Envelope | undefined> {
    const row = await db('identity_providers')
      .where({ id })
      .first<Record<(typeof ENVELOPE_COLUMNS)[number], unknown> | undefined>(ENVELOPE_COLUMNS);
    return row && envelopeOfColumns(row);
  }

  /** Creates the provider or replaces its settings and secret; `set` enables it again. */
  async upsert(db: Executor, write: ProviderWrite, at: string): Promise<void> {
    const { envelope } = write;
    const columns = {
      kind: write.kind,
      label: write.label,
      endpoint: write.endpoint,
      client_id: write.clientId,
      subject_claim: write.subjectClaim,
      token_auth: write.tokenAuth,
      allowed_tenants: JSON.stringify(write.allowedTenants),
      allowed_email_domains: JSON.stringify(write.allowedEmailDomains),
      links_im_open_id: write.linksImOpenId,
      organization_id: write.organizationId ?? null,
      groups_claim: write.groupsClaim ?? NO_DIRECTORY.groupsClaim,
      mappings: JSON.stringify(write.mappings ?? []),
      default_role: write.defaultRole ?? null,
      require_group: write.requireGroup ?? false,
      secret_version: write.secretVersion,
      ...envelopeColumns(envelope),
      disabled_at: write.disabledAt ?? null,
      updated_at: at,
    };
    await db('identity_providers')
      .insert({ id: write.id, ...columns, created_at: at })
      .onConflict('id')
      .merge(columns);
  }

  /** The enabled provider other than `id` that speaks for the imOpenId namespace, if any. */
  async findOtherLinkingAuthority(db: Executor, id: string): Promise<string | undefined> {
    const row = await db('identity_providers')
      .where({ links_im_open_id: true })
      .whereNull('disabled_at')
      .whereNot({ id })
      .first<{ id: string } | undefined>('id');
    return row?.id;
  }

  /** Marks an enabled provider disabled; false when there is none to disable. */
  async disable(db: Executor, id: string, at: string): Promise<boolean> {
    const updated = await db('identity_providers')
      .where({ id })
      .whereNull('disabled_at')
      .update({ disabled_at: at, updated_at: at });
    return updated === 1;
  }

  /** Sealed client secrets per master key, so a missing key file is never replaced over them. */
  keyUsage(db: Executor): Promise<KeyUsage[]> {
    return sealedKeyUsage(db, 'identity_providers');
  }
}
