import { createHmac } from 'node:crypto';
import type { IssuedSession, SessionService } from '../auth/sessions.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { MINUTE_MS, type Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import type { OrgAccessResolver } from '../orgs/org-access-resolver.js';
import { isName } from '../shared/text.js';
import { avatarUrlProblem } from '../users/avatar-url.js';
import type { UserStore } from '../users/store.js';
import { identityAuditView, type MembershipsOf, recordInEachOrganization } from './identity-audit.js';
import type { UserIdentityStore } from './identity-store.js';
import type { PendingSignIn, PendingSignInStore } from './pending-store.js';
import { type AuthorizationRequest, type ProviderProfile, type ProviderWithSecret, SignInRefused } from './protocol.js';
import type { IdentityProviderService } from './providers.js';
import type { IdentityProvider } from './provider-store.js';
import { safeReturnTo } from './return-to.js';

/** How long a started sign-in may wait for its callback. */
export const PENDING_SIGN_IN_MS = 10 * MINUTE_MS;
/** The longest subject kept: it may become the user's `imOpenId`. */
const MAX_SUBJECT_LENGTH = 128;
/** The longest imOpenId (`users.im_open_id`). */
const MAX_IM_OPEN_ID_LENGTH = 128;
/** The audit action of an identity connected from the profile page (a callback, not an operation of its own). */
export const CONNECT_IDENTITY_ACTION = 'connectIdentity';
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

/** A verified sign-in before anything is written: who, through which provider, and the user it would be. */
export interface SignInAttempt {
  provider: IdentityProvider;
  profile: ProviderProfile;
  /** The user the identity already belongs to (or, connecting, the session's user); undefined for a first sign-in. */
  userId: string | undefined;
}

/**
 * What runs around a sign-in: `beforeLink` may refuse it (SignInRefused) before anything is
 * written (the sign-in a company requires, a directory group required); `afterLink` runs once the
 * identity is linked, before the browser is let in (automatic membership, directory groups).
 */
export interface SignInHook {
  beforeLink?(attempt: SignInAttempt): Promise<void>;
  afterLink(signIn: LinkedSignIn): Promise<void>;
}

/** A finished callback: a new session, or (`session` absent) an identity connected to the live one's user. */
export interface SignedIn {
  session?: IssuedSession;
  returnTo: string;
  userId: string;
  /** An org admin's test sign-in: what the provider said, nothing linked and nobody signed in. */
  test?: TestedSignIn;
}

/** What a test sign-in read: the provider's answer, and the refusal a real sign-in would meet. */
export interface TestedSignIn {
  organizationId: string;
  provider: IdentityProvider;
  profile: ProviderProfile;
  /** Why a real sign-in with this answer would be refused (the words of the refusal); null when it would not. */
  refusal: string | null;
  requestId: string | null;
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
    private readonly memberships: MembershipsOf,
    private readonly hooks: readonly SignInHook[] = [],
  ) {}

  listProviders(): Promise<IdentityProvider[]> {
    return this.providers.listEnabled();
  }

  /**
   * Starts a sign-in: the provider's authorization URL, and the browser token to keep in
   * `hub_signin` (the one the browser already holds, so sign-ins started in two tabs both finish).
   * With `linkUserId` (the live session's user, `?link=1`) the callback connects the identity to
   * that user instead of signing in.
   */
  async start(
    providerId: string,
    returnTo: string | undefined,
    browserToken: string | undefined,
    linkUserId: string | null = null,
    testOrganizationId: string | null = null,
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
      linkUserId,
      testOrganizationId,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + PENDING_SIGN_IN_MS).toISOString(),
    });
    const location = await this.providers.protocols[target.provider.kind].authorizationUrl(target, request);
    return { location, browserToken: browser };
  }

  /**
   * Finishes a sign-in at its callback; throws SignInRefused. `sessionUserId` is the user of the
   * browser's live session, which a connecting callback must still have.
   */
  async finish(
    providerId: string,
    callback: CallbackInput,
    browserToken: string | undefined,
    sessionUserId?: string,
  ): Promise<SignedIn> {
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
    try {
      return await this.finishPending(target, pending, callback, browserToken, sessionUserId);
    } catch (err) {
      throw err instanceof SignInRefused && pending.linkUserId !== null ? err.ofLinking() : err;
    }
  }

  private async finishPending(
    target: ProviderWithSecret,
    pending: PendingSignIn,
    callback: CallbackInput,
    browserToken: string,
    sessionUserId: string | undefined,
  ): Promise<SignedIn> {
    const providerId = target.provider.id;
    if (this.clock.now().toISOString() >= pending.expiresAt) {
      throw new SignInRefused('signin_expired', 'This sign-in took longer than 10 minutes. Start again.');
    }
    if (pending.linkUserId !== null && pending.linkUserId !== sessionUserId) {
      throw new SignInRefused('session_required', 'The session that started connecting this sign-in has ended.');
    }
    if (callback.error !== undefined) {
      throw new SignInRefused('provider_denied', `The provider refused the sign-in: ${callback.error}.`);
    }
    const request = this.authorizationRequest(providerId, browserToken, callback.state!, pending.nonce);
    const profile = await this.providers.protocols[target.provider.kind].finish(target, request, callback.url);
    const requestId = callback.requestId ?? null;
    if (pending.testOrganizationId) {
      const test = await this.tested(target.provider, profile, pending.testOrganizationId, requestId);
      return { userId: pending.linkUserId!, returnTo: pending.returnTo, test };
    }
    checkAllowed(target.provider, profile);
    const knownUserId =
      pending.linkUserId ?? (await this.identities.findUserId(this.uow.executor, providerId, profile.subject));
    for (const hook of this.hooks) await hook.beforeLink?.({ provider: target.provider, profile, userId: knownUserId });
    if (pending.linkUserId !== null) {
      const userId = pending.linkUserId;
      await this.connect(target.provider, profile, userId, requestId);
      await this.afterLink({ userId, providerId, profile, requestId });
      await this.orgAccess.invalidate();
      return { userId, returnTo: pending.returnTo };
    }
    const { session, userId } = await this.link(target.provider, profile);
    await this.afterLink({ userId, providerId, profile, requestId });
    // Sessions carry the user's name and avatar, which this sign-in may have refreshed; so does each
    // organization's access (the name its audit log gives the actor).
    await Promise.all([this.sessions.invalidateCache(), this.orgAccess.invalidate()]);
    return { session, userId, returnTo: pending.returnTo };
  }

  /**
   * A test sign-in: the checks a real one makes, their refusal reported rather than thrown, and
   * nothing written. The provider must still be the organization's.
   */
  private async tested(
    provider: IdentityProvider,
    profile: ProviderProfile,
    organizationId: string,
    requestId: string | null,
  ): Promise<TestedSignIn> {
    if (provider.organizationId !== organizationId) {
      throw new SignInRefused('provider_unavailable', 'This provider is not the organization’s any more.');
    }
    let refusal: string | null = null;
    try {
      checkAllowed(provider, profile);
      const userId = await this.identities.findUserId(this.uow.executor, provider.id, profile.subject);
      for (const hook of this.hooks) await hook.beforeLink?.({ provider, profile, userId });
    } catch (err) {
      if (!(err instanceof SignInRefused)) throw err;
      refusal = err.message;
    }
    return { organizationId, provider, profile, refusal, requestId };
  }

  private async afterLink(signIn: LinkedSignIn): Promise<void> {
    for (const hook of this.hooks) await hook.afterLink(signIn);
  }

  private async usableProvider(providerId: string): Promise<ProviderWithSecret> {
    const target = await this.providers.enabledWithSecret(providerId);
    if (!target) throw new SignInRefused('provider_unavailable', 'This sign-in option is unknown or turned off.');
    const problem = this.providers.endpointProblem(target.provider);
    if (problem) throw new SignInRefused('provider_unavailable', `This sign-in option cannot be used: ${problem}.`);
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
   * The user behind the identity: the one it was linked to before; else, when the provider speaks
   * for the imOpenId namespace, the user whose `imOpenId` is the subject (someone an admin added);
   * else a new user with no membership. A subject is unique only at its own provider, so no other
   * provider's first sign-in ever becomes an existing user. Never matched by email. The name and an
   * https avatar are refreshed; the session starts in the same transaction.
   */
  private link(
    provider: IdentityProvider,
    profile: ProviderProfile,
  ): Promise<{ session: IssuedSession; userId: string }> {
    const now = this.clock.now();
    return this.uow.run(async (trx) => {
      const linked = await this.identities.findUserId(trx, provider.id, profile.subject);
      const userId = linked ?? (await this.firstSignInUser(trx, provider, profile.subject, now));
      await this.identities.refreshProfile(trx, userId, shownProfile(profile), now.toISOString());
      await this.identities.record(trx, identityOf(provider, profile, userId), now.toISOString());
      return { session: await this.sessions.startSession(trx, userId), userId };
    });
  }

  /**
   * The user a provider's first sign-in of a subject belongs to. Only the provider holding the
   * linking authority reads the subject as an imOpenId; any other makes a new user whose imOpenId
   * is namespaced by the provider (`<providerId>:<subject>`), or random when that one is too long or
   * already taken (an admin may have added it before the person came), so it never collides with
   * the chat platform's ids nor joins a user an admin added.
   */
  private async firstSignInUser(trx: Executor, provider: IdentityProvider, subject: string, now: Date) {
    if (provider.linksImOpenId) return (await this.users.ensure(trx, { imOpenId: subject }, now)).id;
    const namespaced = `${provider.id}:${subject}`;
    const free = namespaced.length <= MAX_IM_OPEN_ID_LENGTH && !(await this.users.findByImOpenId(trx, namespaced));
    const imOpenId = free ? namespaced : `${provider.id}:${newToken().slice(0, 22)}`;
    return (await this.users.insert(trx, imOpenId, now)).id;
  }

  /**
   * Connects the identity to the user whose session started it (the profile page's "Connect"):
   * refused when it belongs to someone else; again for the same user, it only counts as used.
   * A new connection is recorded in the audit log of each organization the user is a member of.
   */
  private async connect(
    provider: IdentityProvider,
    profile: ProviderProfile,
    userId: string,
    requestId: string | null,
  ): Promise<void> {
    const now = this.clock.now();
    await this.uow.run(async (trx) => {
      const owner = await this.identities.findUserId(trx, provider.id, profile.subject);
      if (owner !== undefined && owner !== userId) {
        throw new SignInRefused(
          'identity_in_use',
          `This account at ${provider.label} is already connected to another user of this hub.`,
        );
      }
      const id = await this.identities.record(trx, identityOf(provider, profile, userId), now.toISOString());
      if (owner !== undefined) return;
      await recordInEachOrganization(
        trx,
        this.memberships,
        userId,
        { at: now, action: CONNECT_IDENTITY_ACTION, requestId },
        {
          target: { type: 'identity', id, label: provider.label },
          before: null,
          after: identityAuditView({ id, providerId: provider.id, providerLabel: provider.label }),
        },
      );
    });
  }
}

/** The name and https avatar a provider gives, when usable. */
function shownProfile(profile: ProviderProfile) {
  return {
    displayName: cleanDisplayName(profile.displayName),
    avatarUrl: profile.avatarUrl && !avatarUrlProblem(profile.avatarUrl) ? profile.avatarUrl : undefined,
  };
}

/** The identity row of a verified profile: an email only when the provider verified it. */
function identityOf(provider: IdentityProvider, profile: ProviderProfile, userId: string) {
  return {
    providerId: provider.id,
    subject: profile.subject,
    userId,
    email: profile.emailVerified ? (profile.email ?? null) : null,
    emailVerified: profile.emailVerified && profile.email !== undefined,
  };
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
