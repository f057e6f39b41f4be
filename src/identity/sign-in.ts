import { createHmac } from 'node:crypto';
import type { IssuedSession, SessionService } from '../auth/sessions.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { MINUTE_MS, type Clock } from '../config/clock.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import type { OrgAccessResolver } from '../orgs/org-access-resolver.js';
import { isName } from '../shared/text.js';
import { avatarUrlProblem } from '../users/avatar-url.js';
import type { UserStore } from '../users/store.js';
import type { UserIdentityStore } from './identity-store.js';
import type { PendingSignInStore } from './pending-store.js';
import { type AuthorizationRequest, type ProviderProfile, type ProviderWithSecret, SignInRefused } from './protocol.js';
import type { IdentityProviderService } from './providers.js';
import type { IdentityProvider } from './provider-store.js';
import { safeReturnTo } from './return-to.js';

/** How long a started sign-in may wait for its callback. */
export const PENDING_SIGN_IN_MS = 10 * MINUTE_MS;
/** The longest subject kept: it may become the user's `imOpenId`. */
const MAX_SUBJECT_LENGTH = 128;
const MAX_DISPLAY_NAME_LENGTH = 200;
/** A `hub_signin` token as newToken makes them (43 base64url characters). */
const BROWSER_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The callback's parameters the service reads (the rest go to the provider's library as they came). */
export interface CallbackInput {
  state: string | undefined;
  error: string | undefined;
  /** The whole callback URL as the provider sent the browser to it. */
  url: URL;
  /** The callback's request id, for the audit events a sign-in may cause (automatic membership). */
  requestId?: string | null;
}

/** A sign-in whose identity is linked: who, through which provider, as the provider vouched. */
export interface LinkedSignIn {
  userId: string;
  providerId: string;
  profile: ProviderProfile;
  requestId: string | null;
}

/** What runs once a sign-in has linked its identity, before the browser is let in (automatic membership). */
export interface SignInHook {
  afterLink(signIn: LinkedSignIn): Promise<void>;
}

export interface SignedIn {
  session: IssuedSession;
  returnTo: string;
  userId: string;
}

/**
 * Sign-in through an identity provider (docs/decisions.md): the start stores a pending sign-in and sends
 * the browser to the provider; the callback checks it came back to the same browser with the
 * same `state` within 10 minutes, lets the provider's protocol verify the answer, applies the
 * provider's tenant and email-domain rules, then links the identity and starts the session in
 * one transaction. Any refusal is a SignInRefused, before anything is written.
 */
export class SignInService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly providers: IdentityProviderService,
    private readonly pending: PendingSignInStore,
    private readonly identities: UserIdentityStore,
    private readonly users: UserStore,
    private readonly sessions: SessionService,
    private readonly orgAccess: Pick<OrgAccessResolver, 'invalidate'>,
    private readonly clock: Clock,
    private readonly baseUrl: string,
    private readonly hook?: SignInHook,
  ) {}

  listProviders(): Promise<IdentityProvider[]> {
    return this.providers.listEnabled();
  }

  /**
   * Starts a sign-in: the provider's authorization URL, and the browser token to keep in
   * `hub_signin` (the one the browser already holds, so sign-ins started in two tabs both finish).
   */
  async start(
    providerId: string,
    returnTo: string | undefined,
    browserToken: string | undefined,
  ): Promise<{ location: URL; browserToken: string }> {
    const target = await this.usableProvider(providerId);
    const browser = browserToken !== undefined && BROWSER_TOKEN.test(browserToken) ? browserToken : newToken();
    const state = newToken();
    const request = this.authorizationRequest(providerId, browser, state, newToken());
    const now = this.clock.now();
    // Sign-ins nobody came back to finish go as new ones start (an index range on expires_at).
    await this.pending.deleteExpired(this.uow.executor, now.toISOString());
    await this.pending.insert(this.uow.executor, {
      stateHash: hashToken(state),
      browserHash: hashToken(browser),
      providerId,
      nonce: request.nonce,
      returnTo: safeReturnTo(returnTo),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + PENDING_SIGN_IN_MS).toISOString(),
    });
    const location = await this.providers.protocols[target.provider.kind].authorizationUrl(target, request);
    return { location, browserToken: browser };
  }

  /** Finishes a sign-in at its callback; throws SignInRefused. */
  async finish(providerId: string, callback: CallbackInput, browserToken: string | undefined): Promise<SignedIn> {
    // First, so every later refusal names a configured provider (the metrics' label stays bounded).
    const target = await this.usableProvider(providerId);
    if (!callback.state) throw new SignInRefused('state_invalid', 'The provider came back without a state.');
    if (!browserToken) {
      throw new SignInRefused('state_invalid', 'This browser started no sign-in (no hub_signin cookie).');
    }
    // Taken first, whatever follows: a state is good for one callback only.
    const pending = await this.uow.run((trx) => this.pending.take(trx, hashToken(callback.state!)));
    if (!pending || pending.providerId !== providerId) {
      throw new SignInRefused('state_invalid', 'This sign-in is unknown or was already used.');
    }
    if (pending.browserHash !== hashToken(browserToken)) {
      throw new SignInRefused('state_invalid', 'This sign-in was started in another browser.');
    }
    if (this.clock.now().toISOString() >= pending.expiresAt) {
      throw new SignInRefused('signin_expired', 'This sign-in took longer than 10 minutes. Start again.');
    }
    if (callback.error !== undefined) {
      throw new SignInRefused('provider_denied', `The provider refused the sign-in: ${callback.error}.`);
    }
    const request = this.authorizationRequest(providerId, browserToken, callback.state, pending.nonce);
    const profile = await this.providers.protocols[target.provider.kind].finish(target, request, callback.url);
    checkAllowed(target.provider, profile);
    const { session, userId } = await this.link(target.provider, profile);
    await this.hook?.afterLink({ userId, providerId, profile, requestId: callback.requestId ?? null });
    // Sessions carry the user's name and avatar, which this sign-in may have refreshed; so does each
    // organization's access (the name its audit log gives the actor).
    await Promise.all([this.sessions.invalidateCache(), this.orgAccess.invalidate()]);
    return { session, userId, returnTo: pending.returnTo };
  }

  private async usableProvider(providerId: string): Promise<ProviderWithSecret> {
    const target = await this.providers.enabledWithSecret(providerId);
    if (!target) throw new SignInRefused('provider_unavailable', 'This sign-in option is unknown or turned off.');
    return target;
  }

  /**
   * The values a start sends and its callback checks. The PKCE verifier is derived from the
   * browser's `hub_signin` token and the state, so it is never stored: a callback needs the browser
   * that started the sign-in to have it.
   */
  private authorizationRequest(
    providerId: string,
    browserToken: string,
    state: string,
    nonce: string,
  ): AuthorizationRequest {
    const codeVerifier = createHmac('sha256', browserToken).update(`pkce:${state}`).digest('base64url');
    return { redirectUri: `${this.baseUrl}/auth/${providerId}/callback`, state, nonce, codeVerifier };
  }

  /**
   * The user behind the identity: the one it was linked to before, else the user whose `imOpenId`
   * is the subject (someone an admin added), else a new user with no membership. Never matched by
   * email. The name and an https avatar are refreshed; the session starts in the same transaction.
   */
  private link(
    provider: IdentityProvider,
    profile: ProviderProfile,
  ): Promise<{ session: IssuedSession; userId: string }> {
    const now = this.clock.now();
    const displayName = cleanDisplayName(profile.displayName);
    const avatarUrl = profile.avatarUrl && !avatarUrlProblem(profile.avatarUrl) ? profile.avatarUrl : undefined;
    return this.uow.run(async (trx) => {
      const linked = await this.identities.findUserId(trx, provider.id, profile.subject);
      const userId = linked ?? (await this.users.ensure(trx, { imOpenId: profile.subject }, now)).id;
      await this.identities.refreshProfile(trx, userId, { displayName, avatarUrl }, now.toISOString());
      await this.identities.record(
        trx,
        {
          providerId: provider.id,
          subject: profile.subject,
          userId,
          email: profile.emailVerified ? (profile.email ?? null) : null,
          emailVerified: profile.emailVerified && profile.email !== undefined,
        },
        now.toISOString(),
      );
      return { session: await this.sessions.startSession(trx, userId), userId };
    });
  }
}

/** The provider's tenant and email-domain rules; an empty list allows any (oidc only: lark requires tenants). */
function checkAllowed(provider: IdentityProvider, profile: ProviderProfile): void {
  if (profile.subject.length > MAX_SUBJECT_LENGTH) {
    throw new SignInRefused(
      'identity_invalid',
      `The provider's subject is longer than ${MAX_SUBJECT_LENGTH} characters.`,
    );
  }
  if (provider.allowedTenants.length && !(profile.tenant && provider.allowedTenants.includes(profile.tenant))) {
    throw new SignInRefused('tenant_not_allowed', 'Accounts of this organization may not sign in here.');
  }
  if (provider.allowedEmailDomains.length) {
    const domain = profile.emailVerified ? profile.email?.split('@').pop()?.toLowerCase() : undefined;
    if (!domain || !provider.allowedEmailDomains.includes(domain)) {
      throw new SignInRefused('email_domain_not_allowed', 'Accounts with this email address may not sign in here.');
    }
  }
}

function cleanDisplayName(name: string | undefined): string | undefined {
  const trimmed = name?.trim().slice(0, MAX_DISPLAY_NAME_LENGTH);
  return trimmed && isName(trimmed) ? trimmed : undefined;
}
