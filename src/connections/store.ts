import { ENVELOPE_COLUMNS, envelopeColumns } from '../crypto/envelope-columns.js';
import { randomUUID } from 'node:crypto';
import type { Envelope } from '../crypto/envelope.js';
import type { KeyUsage } from '../crypto/keyring.js';
import type { Executor } from '../db/unit-of-work.js';

/** The `status` column; the mapper hands it out as the contract's ConnectionStatus, which the compiler holds it to. */
export type ConnectionStatus = 'DRAFT' | 'ACTIVE' | 'DISABLED';
/** The `mode` column; held to the contract's ConnectionMode the same way. */
export type ConnectionMode = 'BYOK' | 'PLATFORM_MANAGED';

/** A provider connection with the key id of its active version (null while it has none). */
export interface ProviderConnectionRecord {
  id: string;
  organization_id: string;
  provider_id: string;
  mode: ConnectionMode;
  status: ConnectionStatus;
  active_version: number | null;
  key_id: string | null;
  created_at: string;
  updated_at: string;
}

/** The chat-application connection with the key id of its active version. */
export interface ChatApplicationConnectionRecord {
  id: string;
  organization_id: string;
  app_id: string;
  bot_open_id: string;
  status: ConnectionStatus;
  active_version: number | null;
  key_id: string | null;
  created_at: string;
  updated_at: string;
}

/** The `kind` column of a capability connection; held to the contract's CapabilityKind by the mapper. */
export type CapabilityKind = 'mcp' | 'http';

/** An external-capability connection with the key id of its active version. */
export interface CapabilityConnectionRecord {
  id: string;
  organization_id: string;
  capability_id: string;
  label: string;
  kind: CapabilityKind;
  endpoint_url: string;
  status: ConnectionStatus;
  active_version: number | null;
  key_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A connection as the resolver reads it: the row and, when it has one, its active envelope. */
export interface SealedConnection<R> {
  connection: R;
  envelope: Envelope | undefined;
}

const TABLES = {
  provider: { connections: 'provider_connections', versions: 'provider_connection_versions' },
  chatApplication: { connections: 'chat_application_connections', versions: 'chat_application_connection_versions' },
  capability: { connections: 'capability_connections', versions: 'capability_connection_versions' },
} as const;

export type ConnectionKind = keyof typeof TABLES;

interface EnvelopeRow {
  key_id: string | null;
  wrapped_key: Buffer | null;
  wrap_iv: Buffer | null;
  wrap_tag: Buffer | null;
  iv: Buffer | null;
  tag: Buffer | null;
  ciphertext: Buffer | null;
}

/** Provider, chat-application and external-capability connections and their sealed credential versions. */
export class ConnectionStore {
  async listProviders(db: Executor, organizationId: string): Promise<ProviderConnectionRecord[]> {
    return withActiveKey(db, 'provider').where('c.organization_id', organizationId);
  }

  /**
   * The connection; `lock` holds its row until the transaction ends (PostgreSQL; SQLite's single writer already
   * serializes).
   */
  async findProvider(
    db: Executor,
    organizationId: string,
    providerId: string,
    options: { lock?: boolean } = {},
  ): Promise<ProviderConnectionRecord | undefined> {
    if (options.lock)
      await db('provider_connections')
        .where({ organization_id: organizationId, provider_id: providerId })
        .forUpdate()
        .first('id');
    return withActiveKey(db, 'provider')
      .where({ 'c.organization_id': organizationId, 'c.provider_id': providerId })
      .first();
  }

  async listCapabilities(db: Executor, organizationId: string): Promise<CapabilityConnectionRecord[]> {
    return withActiveKey(db, 'capability').where('c.organization_id', organizationId);
  }

  /**
   * The connection; `lock` holds its row until the transaction ends (PostgreSQL; SQLite's single writer already
   * serializes).
   */
  async findCapability(
    db: Executor,
    organizationId: string,
    capabilityId: string,
    options: { lock?: boolean } = {},
  ): Promise<CapabilityConnectionRecord | undefined> {
    if (options.lock)
      await db('capability_connections')
        .where({ organization_id: organizationId, capability_id: capabilityId })
        .forUpdate()
        .first('id');
    return withActiveKey(db, 'capability')
      .where({ 'c.organization_id': organizationId, 'c.capability_id': capabilityId })
      .first();
  }

  /** The connection; `lock` holds its row until the transaction ends, as for a provider. */
  async findChatApplication(
    db: Executor,
    organizationId: string,
    options: { lock?: boolean } = {},
  ): Promise<ChatApplicationConnectionRecord | undefined> {
    if (options.lock)
      await db('chat_application_connections').where({ organization_id: organizationId }).forUpdate().first('id');
    return withActiveKey(db, 'chatApplication').where('c.organization_id', organizationId).first();
  }

  /**
   * Makes the (organization, provider) row exist, as an empty DRAFT of the given mode, and locks
   * it (PostgreSQL; SQLite's single writer already serializes). Returns the row and whether
   * this call created it; a concurrent creator's row is taken as is.
   */
  async claimProvider(
    trx: Executor,
    input: { organizationId: string; providerId: string; mode: ConnectionMode },
    at: string,
  ): Promise<{ connection: ProviderConnectionRecord; created: boolean }> {
    const inserted = await trx('provider_connections')
      .insert({
        id: randomUUID(),
        organization_id: input.organizationId,
        provider_id: input.providerId,
        mode: input.mode,
        status: 'DRAFT',
        active_version: null,
        created_at: at,
        updated_at: at,
      })
      .onConflict(['organization_id', 'provider_id'])
      .ignore()
      .returning<{ id: string }[]>('id');
    await trx('provider_connections')
      .where({ organization_id: input.organizationId, provider_id: input.providerId })
      .forUpdate()
      .first('id');
    return {
      connection: (await this.findProvider(trx, input.organizationId, input.providerId))!,
      created: inserted.length > 0,
    };
  }

  /** The same for the organization's single chat-application connection. */
  async claimChatApplication(
    trx: Executor,
    input: { organizationId: string; appId: string; botOpenId: string },
    at: string,
  ): Promise<{ connection: ChatApplicationConnectionRecord; created: boolean }> {
    const inserted = await trx('chat_application_connections')
      .insert({
        id: randomUUID(),
        organization_id: input.organizationId,
        app_id: input.appId,
        bot_open_id: input.botOpenId,
        status: 'DRAFT',
        active_version: null,
        created_at: at,
        updated_at: at,
      })
      .onConflict(['organization_id'])
      .ignore()
      .returning<{ id: string }[]>('id');
    await trx('chat_application_connections').where({ organization_id: input.organizationId }).forUpdate().first('id');
    return { connection: (await this.findChatApplication(trx, input.organizationId))!, created: inserted.length > 0 };
  }

  /** The same for an external-capability connection, created with the given label, kind and endpoint. */
  async claimCapability(
    trx: Executor,
    input: { organizationId: string; capabilityId: string; label: string; kind: CapabilityKind; endpointUrl: string },
    at: string,
  ): Promise<{ connection: CapabilityConnectionRecord; created: boolean }> {
    const inserted = await trx('capability_connections')
      .insert({
        id: randomUUID(),
        organization_id: input.organizationId,
        capability_id: input.capabilityId,
        label: input.label,
        kind: input.kind,
        endpoint_url: input.endpointUrl,
        status: 'DRAFT',
        active_version: null,
        created_at: at,
        updated_at: at,
      })
      .onConflict(['organization_id', 'capability_id'])
      .ignore()
      .returning<{ id: string }[]>('id');
    const connection = (await this.findCapability(trx, input.organizationId, input.capabilityId, { lock: true }))!;
    return { connection, created: inserted.length > 0 };
  }

  /** The number the next version of the connection gets: versions count up from 1 and are never reused. */
  async nextVersion(trx: Executor, kind: ConnectionKind, connectionId: string): Promise<number> {
    const row = await trx(TABLES[kind].versions)
      .where({ connection_id: connectionId })
      .max<{ v: number | string | null }>({ v: 'version' })
      .first();
    return Number(row?.v ?? 0) + 1;
  }

  async insertVersion(
    trx: Executor,
    kind: ConnectionKind,
    input: { connectionId: string; version: number; envelope: Envelope },
    at: string,
  ): Promise<void> {
    const { envelope } = input;
    await trx(TABLES[kind].versions).insert({
      connection_id: input.connectionId,
      version: input.version,
      ...envelopeColumns(envelope),
      created_at: at,
    });
  }

  /** Makes the version the active one and the connection ACTIVE, with any identifier changes. */
  async activate(
    trx: Executor,
    kind: ConnectionKind,
    connectionId: string,
    version: number,
    at: string,
    changes: {
      mode?: ConnectionMode;
      app_id?: string;
      bot_open_id?: string;
      label?: string;
      kind?: CapabilityKind;
      endpoint_url?: string;
    } = {},
  ): Promise<void> {
    await trx(TABLES[kind].connections)
      .where({ id: connectionId })
      .update({ ...changes, status: 'ACTIVE', active_version: version, updated_at: at });
  }

  async setStatus(
    trx: Executor,
    kind: ConnectionKind,
    connectionId: string,
    status: ConnectionStatus,
    at: string,
  ): Promise<void> {
    await trx(TABLES[kind].connections).where({ id: connectionId }).update({ status, updated_at: at });
  }

  async sealedProvider(
    db: Executor,
    organizationId: string,
    providerId: string,
  ): Promise<SealedConnection<ProviderConnectionRecord> | undefined> {
    const row = await withActiveEnvelope(db, 'provider')
      .where({ 'c.organization_id': organizationId, 'c.provider_id': providerId })
      .first();
    return row && splitEnvelope<ProviderConnectionRecord>(row);
  }

  async sealedChatApplication(
    db: Executor,
    organizationId: string,
  ): Promise<SealedConnection<ChatApplicationConnectionRecord> | undefined> {
    const row = await withActiveEnvelope(db, 'chatApplication').where('c.organization_id', organizationId).first();
    return row && splitEnvelope<ChatApplicationConnectionRecord>(row);
  }

  async sealedCapability(
    db: Executor,
    organizationId: string,
    capabilityId: string,
  ): Promise<SealedConnection<CapabilityConnectionRecord> | undefined> {
    const row = await withActiveEnvelope(db, 'capability')
      .where({ 'c.organization_id': organizationId, 'c.capability_id': capabilityId })
      .first();
    return row && splitEnvelope<CapabilityConnectionRecord>(row);
  }

  /**
   * Sealed versions per master key id over every kind; versions that are some connection's active one counted apart.
   */
  async keyUsage(db: Executor): Promise<KeyUsage[]> {
    const usage = new Map<string, KeyUsage>();
    for (const kind of Object.keys(TABLES) as ConnectionKind[]) {
      const { connections, versions } = TABLES[kind];
      const rows = await db(`${versions} as v`)
        .leftJoin(`${connections} as c`, (on) =>
          on.on('c.id', 'v.connection_id').andOn('c.active_version', 'v.version'),
        )
        .groupBy('v.key_id')
        .select<Array<{ key_id: string; versions: number | string; active: number | string }>>(
          'v.key_id',
          db.raw('count(*) as versions'),
          db.raw('count(c.id) as active'),
        );
      for (const row of rows) {
        const entry = usage.get(row.key_id) ?? { keyId: row.key_id, versions: 0, activeVersions: 0 };
        entry.versions += Number(row.versions);
        entry.activeVersions += Number(row.active);
        usage.set(row.key_id, entry);
      }
    }
    return [...usage.values()];
  }
}

const CONNECTION_COLUMNS = {
  provider: [
    'c.id',
    'c.organization_id',
    'c.provider_id',
    'c.mode',
    'c.status',
    'c.active_version',
    'c.created_at',
    'c.updated_at',
  ],
  chatApplication: [
    'c.id',
    'c.organization_id',
    'c.app_id',
    'c.bot_open_id',
    'c.status',
    'c.active_version',
    'c.created_at',
    'c.updated_at',
  ],
  capability: [
    'c.id',
    'c.organization_id',
    'c.capability_id',
    'c.label',
    'c.kind',
    'c.endpoint_url',
    'c.status',
    'c.active_version',
    'c.created_at',
    'c.updated_at',
  ],
} as const;

/** The connections of a kind joined to their active version, for its key id. */
function withActiveKey(db: Executor, kind: ConnectionKind) {
  return activeJoin(db, kind).select([...CONNECTION_COLUMNS[kind], 'v.key_id']);
}

function withActiveEnvelope(db: Executor, kind: ConnectionKind) {
  return activeJoin(db, kind).select([...CONNECTION_COLUMNS[kind], ...ENVELOPE_COLUMNS.map((c) => `v.${c}`)]);
}

function activeJoin(db: Executor, kind: ConnectionKind) {
  const { connections, versions } = TABLES[kind];
  return db(`${connections} as c`).leftJoin(`${versions} as v`, (on) =>
    on.on('v.connection_id', 'c.id').andOn('v.version', 'c.active_version'),
  );
}

function splitEnvelope<R extends { key_id: string | null }>(row: Omit<R, 'key_id'> & EnvelopeRow): SealedConnection<R> {
  const { key_id, wrapped_key, wrap_iv, wrap_tag, iv, tag, ciphertext, ...connection } = row;
  const complete = key_id !== null && wrapped_key && wrap_iv && wrap_tag && iv && tag && ciphertext;
  return {
    connection: { ...connection, key_id } as unknown as R,
    envelope: complete
      ? { keyId: key_id, wrappedKey: wrapped_key, wrapIv: wrap_iv, wrapTag: wrap_tag, iv, tag, ciphertext }
      : undefined,
  };
}
