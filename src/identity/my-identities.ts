import { currentAuditScope } from '../audit/scope.js';
import type { Clock } from '../config/clock.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { conflict, notFound } from '../errors/api-error.js';
import { identityAuditView, type MembershipsOf, recordInEachOrganization } from './identity-audit.js';
import type { ListedIdentity, UserIdentityStore } from './identity-store.js';

/**
 * A person's own sign-in identities, as the profile page's "Connected sign-ins" shows them: listed,
 * and removed one at a time, never the last (a person without one could sign in only by a login
 * link an operator prints). Connecting one is a sign-in started with `link=1` (src/identity/sign-in.ts).
 */
export class MyIdentityService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly identities: UserIdentityStore,
    private readonly memberships: MembershipsOf,
    private readonly clock: Clock,
  ) {}

  list(userId: string): Promise<ListedIdentity[]> {
    return this.identities.listOfUser(this.uow.executor, userId);
  }

  /** Removes one of the user's identities; 404 `identity_not_found`, 409 `last_identity`. */
  async remove(userId: string, identityId: string): Promise<void> {
    await this.uow.run(async (trx) => {
      await this.identities.lockUser(trx, userId);
      const mine = await this.identities.listOfUser(trx, userId);
      const identity = mine.find((candidate) => candidate.id === identityId);
      if (!identity) throw notFound('identity_not_found', 'You have no sign-in with this id.');
      if (mine.length === 1) {
        throw conflict(
          'last_identity',
          `${identity.providerLabel} is the only sign-in you have; connect another one before removing it.`,
        );
      }
      await this.identities.remove(trx, userId, identityId);
      const scope = currentAuditScope();
      await recordInEachOrganization(
        trx,
        this.memberships,
        userId,
        {
          at: scope?.at ?? this.clock.now(),
          action: scope?.action ?? 'removeMyIdentity',
          requestId: scope?.requestId ?? null,
          clientRequestId: scope?.clientRequestId ?? null,
        },
        {
          target: { type: 'identity', id: identity.id, label: identity.providerLabel },
          before: identityAuditView(identity),
          after: null,
        },
      );
    });
  }
}
