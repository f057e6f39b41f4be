import type { Clock } from '../config/clock.js';
import { open, seal, type EnvelopeBinding } from '../crypto/envelope.js';
import type { Keyring, KeyringSource } from '../crypto/keyring.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { endpointUrlProblem } from './endpoint-url.js';
import type { ProviderWithSecret, SignInProtocol } from './protocol.js';
import type { ProviderSettings } from './provider-settings.js';
import type { Executor } from '../db/unit-of-work.js';
import type { DirectorySettings, IdentityProvider, IdentityProviderStore, ProviderKind } from './provider-store.js';

/** Each kind's protocol: how a provider of it is checked, visited and read. */
export type SignInProtocols = Readonly<Record<ProviderKind, SignInProtocol>>;

/**
 * Where a client secret's envelope belongs. The operator's identity providers belong to the
 * platform (organization ids are UUIDs, so the two can never meet), an organization's to it; each
 * write seals a new version, so an envelope copied to another provider or back over a newer one
 * does not open.
 */
const bindingOf = (providerId: string, version: number, organizationId: string | null): EnvelopeBinding => ({
  organizationId: organizationId ?? 'platform',
  connectionId: `identity-provider:${providerId}`,
  version,
});

/** `hub identity-provider set` of an id an organization's admins configured. */
export class ProviderOfOrganization extends Error {
  constructor(readonly providerId: string) {
    super(
      `identity provider "${providerId}" belongs to an organization; its admins change it under Settings → Sign-in`,
    );
    this.name = 'ProviderOfOrganization';
  }
}

/** A provider's row as a write gives it: the settings, the organization's directory rules, its state. */
export type ProviderWriteInput = ProviderSettings & Partial<DirectorySettings> & { disabledAt?: string | null };

/** `set --links-im-open-id` while another enabled provider already speaks for the imOpenId namespace. */
export class LinkingAuthorityHeld extends Error {
  constructor(readonly holderId: string) {
    super(
      `--links-im-open-id: identity provider "${holderId}" already links first sign-ins to members by imOpenId; ` +
        `only one enabled provider may (set "${holderId}" again without the flag, or disable it, first)`,
    );
    this.name = 'LinkingAuthorityHeld';
  }
}

/**
 * The identity providers the platform operator configures with the host console: stored in the
 * database (every instance sees the same ones), the client secret sealed by the keyring like
 * connection credentials and opened only for the request that sends it to the provider.
 */
export class IdentityProviderService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: IdentityProviderStore,
    private readonly keyrings: KeyringSource,
    private readonly clock: Clock,
    readonly protocols: SignInProtocols,
    /** `HUB_OUTBOUND_ALLOW_PRIVATE`: whether a provider may be reached over plain http. */
    private readonly allowHttp: boolean,
  ) {}

  /**
   * Why the server may not sign anyone in through this provider now, or undefined: the rule
   * `identity-provider set` applied, under this server's setting (a provider saved with http
   * allowed is not used by a server that does not allow it).
   */
  endpointProblem(provider: Pick<IdentityProvider, 'kind' | 'endpoint'>): string | undefined {
    const problem = endpointUrlProblem(provider.endpoint, this.allowHttp);
    return problem && `its ${provider.kind === 'oidc' ? 'issuer' : 'base URL'} ${problem}`;
  }

  /**
   * Creates or replaces a provider and enables it. The provider must answer as its kind requires
   * (ProviderCheckFailed otherwise) and, to speak for the imOpenId namespace, no other enabled
   * provider may (LinkingAuthorityHeld) before anything is written. A unique index on the table
   * keeps two concurrent `set`s from both taking it.
   */
  async set(
    settings: ProviderSettings,
    clientSecret: string,
  ): Promise<{ provider: IdentityProvider; created: boolean }> {
    await this.check(settings);
    const keyring = await this.keyring();
    const created = await this.uow.run(async (trx) => {
      const existing = await this.store.find(trx, settings.id);
      if (existing?.organizationId) throw new ProviderOfOrganization(settings.id);
      if (settings.linksImOpenId) {
        const holder = await this.store.findOtherLinkingAuthority(trx, settings.id);
        if (holder) throw new LinkingAuthorityHeld(holder);
      }
      await this.write(trx, settings, clientSecret, existing, keyring);
      return existing === undefined;
    });
    return { provider: (await this.find(settings.id))!, created };
  }

  /** The provider answers as its kind must (ProviderCheckFailed otherwise); asked before any write. */
  check(settings: Pick<ProviderSettings, 'kind' | 'endpoint'>): Promise<void> {
    return this.protocols[settings.kind].check(settings.endpoint);
  }

  /**
   * The master keys, loaded before a transaction that seals or opens a secret: loading may read
   * the database, which on SQLite's one connection would wait for that transaction.
   */
  keyring(): Promise<Keyring> {
    return this.keyrings.keyring();
  }

  /**
   * Writes the provider in the caller's transaction, its client secret sealed under the next
   * version after `existing`'s. Checks are the caller's.
   */
  async write(
    trx: Executor,
    input: ProviderWriteInput,
    clientSecret: string,
    existing: Pick<IdentityProvider, 'secretVersion'> | undefined,
    keyring: Keyring,
  ): Promise<void> {
    const secretVersion = (existing?.secretVersion ?? 0) + 1;
    const binding = bindingOf(input.id, secretVersion, input.organizationId ?? null);
    const envelope = seal(Buffer.from(clientSecret, 'utf8'), binding, keyring);
    await this.store.upsert(trx, { ...input, secretVersion, envelope }, this.clock.now().toISOString());
  }

  /** The provider's client secret, opened (a change that keeps it seals it again under a new version). */
  async secretOf(db: Executor, provider: IdentityProvider, keyring?: Keyring): Promise<string> {
    const envelope = await this.store.findEnvelope(db, provider.id);
    if (!envelope) throw new Error(`identity provider ${provider.id} has no sealed secret`);
    const binding = bindingOf(provider.id, provider.secretVersion, provider.organizationId);
    const plaintext = open(envelope, binding, keyring ?? (await this.keyrings.keyring()));
    try {
      return plaintext.toString('utf8');
    } finally {
      plaintext.fill(0);
    }
  }

  list(): Promise<IdentityProvider[]> {
    return this.store.list(this.uow.executor);
  }

  /** The operator's providers people may sign in with now: enabled, and reachable under the outbound rule. */
  async listEnabled(): Promise<IdentityProvider[]> {
    return (await this.list()).filter((provider) => provider.disabledAt === null && !this.endpointProblem(provider));
  }

  /** One organization's providers people may sign in with now. */
  async listEnabledOf(organizationId: string): Promise<IdentityProvider[]> {
    const providers = await this.store.listOfOrganization(this.uow.executor, organizationId);
    return providers.filter((provider) => provider.disabledAt === null);
  }

  find(id: string): Promise<IdentityProvider | undefined> {
    return this.store.find(this.uow.executor, id);
  }

  /** Disables an enabled provider: no new sign-in starts or finishes through it. False when none was enabled. */
  disable(id: string): Promise<boolean> {
    return this.store.disable(this.uow.executor, id, this.clock.now().toISOString());
  }

  /** An enabled provider with its client secret opened, or undefined when it is unknown or disabled. */
  async enabledWithSecret(id: string): Promise<ProviderWithSecret | undefined> {
    const provider = await this.find(id);
    if (!provider || provider.disabledAt !== null) return undefined;
    return { provider, clientSecret: await this.secretOf(this.uow.executor, provider) };
  }
}
