import type { Executor } from '../db/unit-of-work.js';

/** A platform runtime credential as stored: only the SHA-256 of its secret, and its first characters. */
export interface RuntimeCredentialRecord {
  id: string;
  name: string;
  prefix: string;
  token_hash: string;
  created_at: string;
  revoked_at: string | null;
}

const TABLE = 'runtime_credentials';
const SHOWN = ['id', 'name', 'prefix', 'created_at', 'revoked_at'] as const;

/** The host's runtime credentials (`runtime_credentials`): no organization's rows. */
export class RuntimeCredentialStore {
  async insert(db: Executor, record: RuntimeCredentialRecord): Promise<void> {
    await db(TABLE).insert(record);
  }

  /** Every credential, newest first, revoked ones included. */
  list(db: Executor): Promise<Omit<RuntimeCredentialRecord, 'token_hash'>[]> {
    return db(TABLE)
      .select(...SHOWN)
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
  }

  /** The live credential named so, or the one with this id (revoked or not). */
  async find(db: Executor, idOrName: string): Promise<RuntimeCredentialRecord | undefined> {
    const byId = (await db(TABLE).where({ id: idOrName }).first()) as RuntimeCredentialRecord | undefined;
    if (byId) return byId;
    return (await db(TABLE).where({ name: idOrName }).whereNull('revoked_at').first()) as
      | RuntimeCredentialRecord
      | undefined;
  }

  /** The live credential whose secret hashes to `tokenHash`. */
  async live(db: Executor, tokenHash: string): Promise<RuntimeCredentialRecord | undefined> {
    return (await db(TABLE).where({ token_hash: tokenHash }).whereNull('revoked_at').first()) as
      | RuntimeCredentialRecord
      | undefined;
  }

  async revoke(db: Executor, id: string, at: string): Promise<void> {
    await db(TABLE).where({ id }).whereNull('revoked_at').update({ revoked_at: at });
  }
}
