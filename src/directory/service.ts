import type { Schema } from '../api/types.js';
import { recordChange } from '../audit/trail.js';
import type { Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { requireVerifiedDomains, type VerifiedDomains } from '../domains/service.js';
import type { DomainStore } from '../domains/store.js';
import { badRequestAt, conflict, notFound, unprocessable } from '../errors/api-error.js';
import { ProviderCheckFailed } from '../identity/protocol.js';
import {
  checkClientSecret,
  checkProviderSettings,
  InvalidProviderSettings,
  type ProviderSettingsInput,
} from '../identity/provider-settings.js';
import type {
  DirectorySettings,
  GroupMapping,
  IdentityProvider,
  IdentityProviderStore,
} from '../identity/provider-store.js';
import type { IdentityProviderService, ProviderWriteInput } from '../identity/providers.js';
import type { TeamStore } from '../teams/store.js';
import { type ListedProvider, orgProviderProjection } from './projection.js';

type CreateRequest = Schema<'CreateOrgIdentityProviderRequest'>;
type UpdateRequest = Schema<'UpdateOrgIdentityProviderRequest'>;

/** A claim name as providers spell them (`groups`, `roles`, `https://example.com/groups`). */
const GROUPS_CLAIM = /^[A-Za-z_][A-Za-z0-9_.:/-]{0,63}$/;

const providerNotFound = (id: string) =>
  notFound('identity_provider_not_found', `This organization has no identity provider "${id}".`);

/**
 * An organization's own identity providers (docs/company-sign-in.md): the same settings and checks
 * as the operator's (src/identity/provider-settings.ts), the same sealed secret and the same
 * sign-in flow, plus the directory rules (src/directory/sync.ts). Its admins see and change only
 * their organization's; ids start with the organization's slug, so the callback URL, which names
 * only the id, stays unique across the hub.
 */
export class OrgIdentityProviderService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: IdentityProviderStore,
    private readonly providers: IdentityProviderService,
    private readonly teams: TeamStore,
    private readonly domains: DomainStore,
    private readonly verifiedAmong: VerifiedDomains,
    private readonly clock: Clock,
    private readonly allowHttp: boolean,
    private readonly baseUrl: string,
  ) {}

  async list(organizationId: string): Promise<ListedProvider[]> {
    return (await this.store.listOfOrganization(this.uow.executor, organizationId)).map((p) => this.listed(p));
  }

  async create(organization: { id: string; slug: string }, body: CreateRequest): Promise<ListedProvider> {
    if (!body.id.startsWith(`${organization.slug}-`)) {
      throw badRequestAt({ path: '/body/id', message: `must start with "${organization.slug}-"` });
    }
    const input = {
      ...checkedSettings(body, this.allowHttp),
      ...directoryOf(body, undefined),
      organizationId: organization.id,
    };
    const clientSecret = checkedSecret(body.clientSecret);
    await this.check(input);
    const keyring = await this.providers.keyring();
    return this.uow.run(async (trx) => {
      if (await this.store.find(trx, body.id)) {
        throw conflict('identity_provider_exists', `An identity provider of this hub already has the id "${body.id}".`);
      }
      await this.checkReferences(trx, organization.id, input);
      await this.providers.write(trx, input, clientSecret, undefined, keyring);
      const after = (await this.store.find(trx, body.id))!;
      await this.record(trx, null, after);
      return this.listed(after);
    });
  }

  async update(organizationId: string, id: string, body: UpdateRequest): Promise<ListedProvider> {
    const existing = await this.find(this.uow.executor, organizationId, id);
    const merged = mergedSettings(existing, body);
    const input: ProviderWriteInput = {
      ...checkedSettings(merged, this.allowHttp),
      ...directoryOf(body, existing),
      organizationId,
      disabledAt:
        body.disabled === undefined ? existing.disabledAt : body.disabled ? this.clock.now().toISOString() : null,
    };
    if (body.disabled === false || input.endpoint !== existing.endpoint) await this.check(input);
    const clientSecret = body.clientSecret === undefined ? undefined : checkedSecret(body.clientSecret);
    const keyring = await this.providers.keyring();
    return this.uow.run(async (trx) => {
      const before = await this.find(trx, organizationId, id);
      if (input.disabledAt && !before.disabledAt) await this.refuseIfRequired(trx, id, 'disable');
      if (input.disabledAt && before.disabledAt) input.disabledAt = before.disabledAt;
      await this.checkReferences(trx, organizationId, input);
      const secret = clientSecret ?? (await this.providers.secretOf(trx, before, keyring));
      await this.providers.write(trx, input, secret, before, keyring);
      const after = (await this.store.find(trx, id))!;
      await this.record(trx, before, after);
      return this.listed(after);
    });
  }

  async delete(organizationId: string, id: string): Promise<void> {
    await this.uow.run(async (trx) => {
      const before = await this.find(trx, organizationId, id);
      await this.refuseIfRequired(trx, id, 'remove');
      await this.store.delete(trx, organizationId, id);
      await this.record(trx, before, null);
    });
  }

  private async find(db: Executor, organizationId: string, id: string): Promise<IdentityProvider> {
    const found = await this.store.find(db, id);
    if (!found || found.organizationId !== organizationId) throw providerNotFound(id);
    return found;
  }

  /** The issuer (or base URL) answers as its kind must, before anything is stored. */
  private async check(settings: Pick<IdentityProvider, 'kind' | 'endpoint'>): Promise<void> {
    try {
      await this.providers.check(settings);
    } catch (err) {
      if (!(err instanceof ProviderCheckFailed)) throw err;
      const field = settings.kind === 'oidc' ? 'issuer' : 'baseUrl';
      throw unprocessable('identity_provider_check_failed', `${field}: ${err.message}`);
    }
  }

  /** Mapped teams are the organization's active teams; vouched-for domains its verified ones. */
  private async checkReferences(trx: Executor, organizationId: string, input: ProviderWriteInput): Promise<void> {
    for (const [i, mapping] of (input.mappings ?? []).entries()) {
      if (mapping.teamId && !(await this.teams.findActive(trx, organizationId, mapping.teamId))) {
        throw notFound('team_not_found', `mappings/${i}: this organization has no active team "${mapping.teamId}".`);
      }
    }
    const domains = input.allowedEmailDomains;
    await requireVerifiedDomains(
      this.verifiedAmong,
      trx,
      organizationId,
      domains,
      'a provider vouches for its addresses',
    );
  }

  private async refuseIfRequired(trx: Executor, id: string, what: string): Promise<void> {
    const domain = await this.domains.enforcesProvider(trx, id);
    if (domain) {
      throw conflict(
        'identity_provider_in_use',
        `${domain} requires sign-in through this provider; stop requiring it under Domains before you ${what} it.`,
      );
    }
  }

  private listed(provider: IdentityProvider): ListedProvider {
    return { ...provider, redirectUri: `${this.baseUrl}/auth/${provider.id}/callback` };
  }

  private record(trx: Executor, before: IdentityProvider | null, after: IdentityProvider | null) {
    const target = (after ?? before)!;
    return recordChange(trx, {
      organizationId: target.organizationId!,
      target: { type: 'identity_provider', id: target.id, label: target.label },
      before: before && orgProviderProjection.toApi(this.listed(before)),
      after: after && orgProviderProjection.toApi(this.listed(after)),
    });
  }
}

/** The request's settings in the form the console's checks take (comma lists), checked; 400 naming the field. */
function checkedSettings(body: Omit<CreateRequest, 'clientSecret'>, allowHttp: boolean) {
  const input: ProviderSettingsInput = {
    id: body.id,
    kind: body.kind,
    label: body.label,
    issuer: body.issuer,
    baseUrl: body.baseUrl,
    clientId: body.clientId,
    subjectClaim: body.subjectClaim,
    tokenAuth: body.tokenAuth,
    allowedTenants: body.allowedTenants?.length ? body.allowedTenants.join(',') : undefined,
    allowedEmailDomains: body.emailDomains?.length ? body.emailDomains.join(',') : undefined,
    linksImOpenId: false,
  };
  try {
    return checkProviderSettings(input, allowHttp);
  } catch (err) {
    if (!(err instanceof InvalidProviderSettings)) throw err;
    // The console's checks name flags; the API names the body's fields.
    const message = err.message.replace(/--([a-z-]+)/g, (_, flag: string) => fieldOf(flag));
    throw badRequestAt({ path: '/body', message });
  }
}

const FIELD_OF_FLAG: Record<string, string> = { 'email-domains': 'emailDomains', kind: 'kind' };
const fieldOf = (flag: string) => FIELD_OF_FLAG[flag] ?? flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function checkedSecret(raw: string): string {
  try {
    return checkClientSecret(raw, 'clientSecret');
  } catch (err) {
    if (!(err instanceof InvalidProviderSettings)) throw err;
    throw badRequestAt({ path: '/body/clientSecret', message: 'must be one line of 1 to 4096 characters' });
  }
}

/** The settings a change gives over the provider's current ones (the kind decides which endpoint field counts). */
function mergedSettings(existing: IdentityProvider, body: UpdateRequest): Omit<CreateRequest, 'clientSecret'> {
  const oidc = existing.kind === 'oidc';
  return {
    id: existing.id,
    kind: existing.kind,
    label: body.label ?? existing.label,
    issuer: oidc ? (body.issuer ?? existing.endpoint) : body.issuer,
    baseUrl: oidc ? body.baseUrl : (body.baseUrl ?? existing.endpoint),
    clientId: body.clientId ?? existing.clientId,
    subjectClaim: oidc ? (body.subjectClaim ?? existing.subjectClaim) : body.subjectClaim,
    tokenAuth: oidc ? (body.tokenAuth ?? existing.tokenAuth) : body.tokenAuth,
    allowedTenants: body.allowedTenants ?? existing.allowedTenants,
    emailDomains: body.emailDomains ?? existing.allowedEmailDomains,
  };
}

/** The directory rules a request gives, over the provider's current ones; groups trimmed, each once. */
function directoryOf(
  body: UpdateRequest,
  existing: DirectorySettings | undefined,
): Omit<DirectorySettings, 'organizationId'> {
  const groupsClaim = body.groupsClaim ?? existing?.groupsClaim ?? 'groups';
  if (!GROUPS_CLAIM.test(groupsClaim)) {
    throw badRequestAt({ path: '/body/groupsClaim', message: 'must be a claim name such as groups or roles' });
  }
  const mappings = body.mappings ? checkedMappings(body.mappings) : (existing?.mappings ?? []);
  return {
    groupsClaim,
    mappings,
    defaultRole: body.defaultRole !== undefined ? body.defaultRole : (existing?.defaultRole ?? null),
    requireGroup: body.requireGroup ?? existing?.requireGroup ?? false,
  };
}

function checkedMappings(raw: Schema<'GroupMapping'>[]): GroupMapping[] {
  const seen = new Set<string>();
  return raw.map((mapping, i) => {
    const group = mapping.group.trim();
    if (group === '') throw badRequestAt({ path: `/body/mappings/${i}/group`, message: 'must not be blank' });
    const key = `${group}\n${mapping.teamId ?? ''}`;
    if (seen.has(key)) {
      throw badRequestAt({ path: `/body/mappings/${i}`, message: 'maps the same group to the same team twice' });
    }
    seen.add(key);
    return {
      group,
      ...(mapping.teamId ? { teamId: mapping.teamId } : {}),
      ...(mapping.role ? { role: mapping.role } : {}),
    };
  });
}
