import { randomUUID } from 'node:crypto';
import { recordHostEvent } from '../audit/host-trail.js';
import { CONSOLE_ACTOR, currentAuditScope } from '../audit/scope.js';
import { newSecretText } from '../api-tokens/secret.js';
import { hashToken } from '../auth/tokens.js';
import type { Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import type { RuntimeCredentialRecord, RuntimeCredentialStore } from './credential-store.js';

/** The start of every platform runtime credential, so people and secret scanners can tell one. */
export const RUNTIME_CREDENTIAL_PREFIX = 'hubr_';
/** How much of a credential its row shows. */
const VISIBLE_PREFIX_LENGTH = 12;
const RUNTIME_CREDENTIAL = /^hubr_[0-9A-Za-z]{43}$/;

/** Whether a bearer value has the shape of a platform runtime credential (anything else is not looked up). */
export const looksLikeRuntimeCredential = (value: string): boolean => RUNTIME_CREDENTIAL.test(value);

/** A refusal of the console's: the message says what to do. */
export class RuntimeCredentialError extends Error {}

export type ShownRuntimeCredential = Omit<RuntimeCredentialRecord, 'token_hash'>;

/**
 * Platform runtime credentials: the host's own secrets (`hubr_<43 base62>`) for the agent
 * runtime it runs, made, listed and revoked on the host console only, never by an organization.
 * One resolves the connection credentials of any organization (`resolveRuntimeCredential`),
 * which is why no organization's account may hold one. Only the SHA-256 of a secret is stored;
 * each creation and revocation is recorded in the host's log, without the secret.
 */
export class RuntimeCredentialService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: RuntimeCredentialStore,
    private readonly clock: Clock,
  ) {}

  async create(name: string): Promise<{ record: ShownRuntimeCredential; secret: string }> {
    const secret = `${RUNTIME_CREDENTIAL_PREFIX}${newSecretText()}`;
    const now = this.clock.now();
    const record: RuntimeCredentialRecord = {
      id: randomUUID(),
      name,
      prefix: secret.slice(0, VISIBLE_PREFIX_LENGTH),
      token_hash: hashToken(secret),
      created_at: now.toISOString(),
      revoked_at: null,
    };
    try {
      await this.uow.run(async (trx) => {
        await this.store.insert(trx, record);
        await this.record(trx, 'runtimeCredential.create', record, now);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new RuntimeCredentialError(`a live runtime credential is named "${name}"`);
      throw err;
    }
    const { token_hash: _hash, ...shown } = record;
    return { record: shown, secret };
  }

  list(): Promise<ShownRuntimeCredential[]> {
    return this.store.list(this.uow.executor);
  }

  /** Revokes the credential with this id, or the live one of this name; it stops working at once. */
  async revoke(idOrName: string): Promise<ShownRuntimeCredential> {
    return this.uow.run(async (trx) => {
      const found = await this.store.find(trx, idOrName);
      if (!found) throw new RuntimeCredentialError(`no runtime credential "${idOrName}"`);
      if (found.revoked_at !== null)
        throw new RuntimeCredentialError(`runtime credential "${idOrName}" is revoked already`);
      const now = this.clock.now();
      await this.store.revoke(trx, found.id, now.toISOString());
      await this.record(trx, 'runtimeCredential.revoke', found, now);
      const { token_hash: _hash, ...shown } = found;
      return { ...shown, revoked_at: now.toISOString() };
    });
  }

  /** The live credential a bearer value is, or undefined (unknown, revoked, or not one's shape). */
  async authenticate(secret: string): Promise<ShownRuntimeCredential | undefined> {
    if (!looksLikeRuntimeCredential(secret)) return undefined;
    const found = await this.store.live(this.uow.executor, hashToken(secret));
    if (!found) return undefined;
    const { token_hash: _hash, ...shown } = found;
    return shown;
  }

  private record(trx: Executor, action: string, credential: RuntimeCredentialRecord, at: Date): Promise<void> {
    return recordHostEvent(trx, {
      actor: currentAuditScope()?.actor ?? CONSOLE_ACTOR,
      at,
      action,
      target: { type: 'runtimeCredential', id: credential.id, label: credential.name },
      details: { prefix: credential.prefix },
    });
  }
}
