import type { Executor } from '../db/unit-of-work.js';

/** A sign-in between its start and its callback. */
export interface PendingSignIn {
  stateHash: string;
  browserHash: string;
  providerId: string;
  nonce: string;
  returnTo: string;
  /** The user of the session that started it to connect one more identity; null for a sign-in. */
  linkUserId: string | null;
  /**
   * An org admin's test of their organization's provider (its id): the callback reports the claims
   * and signs nobody in; `linkUserId` is the admin, whose session must still be the browser's.
   */
  testOrganizationId?: string | null;
  createdAt: string;
  expiresAt: string;
}

interface PendingRecord {
  state_hash: string;
  browser_hash: string;
  provider_id: string;
  nonce: string;
  return_to: string;
  link_user_id: string | null;
  test_organization_id: string | null;
  created_at: string;
  expires_at: string;
}

/** Pending sign-ins, server-side so any instance can finish one. Owns every statement on `pending_sign_ins`. */
export class PendingSignInStore {
  async insert(db: Executor, pending: PendingSignIn): Promise<void> {
    const row: PendingRecord = {
      state_hash: pending.stateHash,
      browser_hash: pending.browserHash,
      provider_id: pending.providerId,
      nonce: pending.nonce,
      return_to: pending.returnTo,
      link_user_id: pending.linkUserId,
      test_organization_id: pending.testOrganizationId ?? null,
      created_at: pending.createdAt,
      expires_at: pending.expiresAt,
    };
    await db('pending_sign_ins').insert(row);
  }

  /**
   * Removes the pending sign-in and returns it, or undefined when there is none. The conditional
   * delete makes it single-use even when two callbacks with the same `state` race.
   */
  async take(trx: Executor, stateHash: string): Promise<PendingSignIn | undefined> {
    const row = await trx('pending_sign_ins').where({ state_hash: stateHash }).first<PendingRecord | undefined>();
    if (!row) return undefined;
    const deleted = await trx('pending_sign_ins').where({ state_hash: stateHash }).delete();
    if (deleted !== 1) return undefined;
    return {
      stateHash: row.state_hash,
      browserHash: row.browser_hash,
      providerId: row.provider_id,
      nonce: row.nonce,
      returnTo: row.return_to,
      linkUserId: row.link_user_id,
      testOrganizationId: row.test_organization_id,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    };
  }

  /** Housekeeping: sign-ins nobody came back to finish. */
  deleteExpired(db: Executor, now: string): Promise<number> {
    return db('pending_sign_ins').where('expires_at', '<=', now).delete();
  }
}
