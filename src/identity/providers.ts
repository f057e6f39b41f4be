import type { Clock } from '../config/clock.js';
import { open, seal, type EnvelopeBinding } from '../crypto/envelope.js';
import type { KeyringSource } from '../crypto/keyring.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { endpointUrlProblem } from './endpoint-url.js';
import type { ProviderWithSecret, SignInProtocol } from './protocol.js';
import type { ProviderSettings } from './provider-settings.js';
import type { IdentityProvider, IdentityProviderStore, ProviderKind } from './provider-store.js';

/** Each kind's protocol: how a provider of it is checked, visited and read. */
export type SignInProtocols = Readonly<Record<ProviderKind, SignInProtocol>>;

/**
 * Where a client secret's envelope belongs. Identity providers belong to the platform, not to an
 * organization (organization ids are UUIDs, so the two can never meet), and each `set` seals a
 * new version, so an envelope copied to another provider or back over a newer one does not open.
 */
const bindingOf = (providerId: string, version: number): EnvelopeBinding => ({
  organizationId: 'platform',
  connectionId: `identity-provider:${providerId}`,
  version,
});

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
    await this.protocols[settings.kind].check(settings.endpoint);
    const keyring = await this.keyrings.keyring();
    const at = this.clock.now().toISOString();
    const created = await this.uow.run(async (trx) => {
      const existing = await this.store.find(trx, settings.id);
      if (settings.linksImOpenId) {
        const holder = await this.store.findOtherLinkingAuthority(trx, settings.id);
        if (holder) throw new LinkingAuthorityHeld(holder);
      }
      const secretVersion = (existing?.secretVersion ?? 0) + 1;
      const envelope = seal(Buffer.from(clientSecret, 'utf8'), bindingOf(settings.id, secretVersion), keyring);
      await this.store.upsert(trx, { ...settings, secretVersion, envelope }, at);
      return existing === undefined;
    });
    return { provider: (await this.find(settings.id))!, created };
  }

  list(): Promise<IdentityProvider[]> {
    return this.store.list(this.uow.executor);
  }

  /** The providers people may sign in with now: enabled, and reachable under the outbound rule. */
  async listEnabled(): Promise<IdentityProvider[]> {
    return (await this.list()).filter((provider) => provider.disabledAt === null && !this.endpointProblem(provider));
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
    const envelope = await this.store.findEnvelope(this.uow.executor, id);
    if (!envelope) return undefined;
    const plaintext = open(envelope, bindingOf(id, provider.secretVersion), await this.keyrings.keyring());
    try {
      return { provider, clientSecret: plaintext.toString('utf8') };
    } finally {
      plaintext.fill(0);
    }
  }
}
