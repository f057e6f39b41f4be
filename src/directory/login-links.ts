import { CONSOLE_ACTOR, withAuditScope } from '../audit/scope.js';
import { recordChange } from '../audit/trail.js';
import type { LoginLinkGate } from '../auth/sessions.js';
import type { LoginLinkMode } from '../config/config.js';
import type { Executor } from '../db/unit-of-work.js';
import { forbidden } from '../errors/api-error.js';
import type { OrganizationStore } from '../orgs/store.js';
import { type SsoEnforcement, ssoRequiredError } from './enforcement.js';

/** The audit action of a break-glass login link, in each of the person's organizations. */
export const BREAK_GLASS_ACTION = 'session.break_glass';

/**
 * Whether a one-time login link may be issued and redeemed: the operator's `HUB_LOGIN_LINKS`
 * (`off`: none; `break-glass`: only `--break-glass` ones), and a verified domain that requires
 * sign-in through its provider, which only a break-glass link passes. A break-glass link is
 * recorded in the audit log of every organization the person is a member of, when it is issued.
 */
export class LoginLinkPolicy implements LoginLinkGate {
  constructor(
    private readonly mode: LoginLinkMode,
    private readonly enforcement: SsoEnforcement,
    private readonly orgs: OrganizationStore,
  ) {}

  async check(db: Executor, userId: string, breakGlass: boolean): Promise<void> {
    if (this.mode === 'off') {
      throw forbidden(
        'login_links_disabled',
        'One-time login links are turned off on this hub (HUB_LOGIN_LINKS=off); sign in with an identity provider.',
      );
    }
    if (breakGlass) return;
    if (this.mode === 'break-glass') {
      throw forbidden(
        'login_links_disabled',
        'This hub issues only break-glass login links (hub login-link --break-glass, HUB_LOGIN_LINKS=break-glass).',
      );
    }
    const requirement = await this.enforcement.requirementFor(db, userId);
    if (requirement) {
      throw ssoRequiredError(requirement, 'Only a break-glass link (hub login-link --break-glass) passes.');
    }
  }

  async issued(trx: Executor, userId: string, breakGlass: boolean, at: Date): Promise<void> {
    if (!breakGlass) return;
    const scope = { actor: CONSOLE_ACTOR, at, action: BREAK_GLASS_ACTION, requestId: null };
    for (const { organization, memberName } of await this.orgs.listActiveMemberships(trx, userId)) {
      await withAuditScope(scope, () =>
        recordChange(trx, {
          organizationId: organization.id,
          target: { type: 'member', id: userId, label: memberName },
          before: null,
          after: { userId, breakGlass: true },
        }),
      );
    }
  }
}
