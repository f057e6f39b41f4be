import { type AuditedChange, recordChange } from '../audit/trail.js';
import type { Clock } from '../config/clock.js';
import { seal, type EnvelopeBinding } from '../crypto/envelope.js';
import type { Keyring, KeyringSource } from '../crypto/keyring.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { type ApiError, badRequest, forbidden, notFound } from '../errors/api-error.js';
import type { Schema } from '../api/types.js';
import type { Logger } from '../log/logger.js';
import { baseUrlProblem } from './base-url.js';
import { toCapabilityConnectionRow, toChatApplicationConnection, toProviderConnectionRow } from './projection.js';
import {
  encodeCapabilityCredentials,
  encodeChatApplicationCredentials,
  encodeProviderCredentials,
  type ChatApplicationCredentialInput,
  type ProviderCredentialInput,
} from './credentials.js';
import type {
  CapabilityConnectionRecord,
  ChatApplicationConnectionRecord,
  ConnectionKind,
  ConnectionMode,
  ConnectionStatus,
  ConnectionStore,
  ProviderConnectionRecord,
} from './store.js';

/** `PUT /capability-connections/{capabilityId}`: the row's fields and the write-only headers. */
export type CapabilityConnectionInput = Schema<'PutCapabilityConnectionRequest'>;

/** The first header name given twice, compared case-insensitively as HTTP does, or undefined. */
function duplicateHeaderName(names: string[]): string | undefined {
  const seen = new Set<string>();
  for (const name of names) {
    const key = name.toLowerCase();
    if (seen.has(key)) return name;
    seen.add(key);
  }
  return undefined;
}

/** Who changes a provider connection: an org admin through the API, or the platform operator through `hub`. */
export type ManagedBy = 'organization' | 'platform';

/** What a PUT did: made the connection, added a version, or (platform only) took over a BYOK connection. */
export type RotationOutcome = 'created' | 'rotated' | 'taken_over';

/** The providerId path parameter's pattern in openapi.yaml; the host console checks it here. */
export const PROVIDER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Provider connections and the chat-application connection. Every PUT seals the credentials as
 * a new version under the active master key and makes it the active one (status ACTIVE, also
 * out of DISABLED); earlier versions stay. Secrets go from the request straight into the
 * envelope: they are never stored, logged or quoted in an error.
 */
export class ConnectionService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: ConnectionStore,
    private readonly keyrings: KeyringSource,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  listProviders(organizationId: string): Promise<ProviderConnectionRecord[]> {
    return this.store.listProviders(this.uow.executor, organizationId);
  }

  /**
   * Creates (first PUT) or rotates the (organization, provider) connection. The organization
   * may not touch a PLATFORM_MANAGED connection; the platform operator may take over a BYOK one.
   */
  async rotateProvider(
    organizationId: string,
    providerId: string,
    input: ProviderCredentialInput,
    managedBy: ManagedBy,
  ): Promise<{ connection: ProviderConnectionRecord; outcome: RotationOutcome }> {
    if (!PROVIDER_ID_PATTERN.test(providerId)) throw badRequest(`providerId must match ${PROVIDER_ID_PATTERN.source}.`);
    const problem = baseUrlProblem(input.baseUrl);
    if (problem) throw badRequest(`baseUrl ${problem}.`, [{ path: '/body/baseUrl', message: problem }]);
    const mode: ConnectionMode = managedBy === 'platform' ? 'PLATFORM_MANAGED' : 'BYOK';
    // Before the transaction: a first load may query the database, which SQLite's single
    // connection could not do from inside one.
    const keyring = await this.keyrings.keyring();
    const at = this.clock.now().toISOString();
    const result = await this.uow.run(async (trx) => {
      const claimed = await this.store.claimProvider(trx, { organizationId, providerId, mode }, at);
      if (mode === 'BYOK' && claimed.connection.mode === 'PLATFORM_MANAGED') {
        throw forbidden(
          'platform_managed_connection',
          `The ${providerId} connection is managed by the platform operator; the organization cannot change it.`,
        );
      }
      const connectionId = claimed.connection.id;
      const version = await this.store.nextVersion(trx, 'provider', connectionId);
      const envelope = sealCredentials(
        encodeProviderCredentials(input),
        { organizationId, connectionId, version },
        keyring,
      );
      await this.store.insertVersion(trx, 'provider', { connectionId, version, envelope }, at);
      await this.store.activate(trx, 'provider', connectionId, version, at, { mode });
      const outcome: RotationOutcome = claimed.created
        ? 'created'
        : claimed.connection.mode !== mode
          ? 'taken_over'
          : 'rotated';
      const connection = (await this.store.findProvider(trx, organizationId, providerId))!;
      await recordChange(trx, {
        organizationId,
        target: { type: 'provider_connection', id: providerId, label: providerId },
        before: claimed.created ? null : toProviderConnectionRow(claimed.connection),
        after: toProviderConnectionRow(connection),
      });
      return { connection, outcome };
    });
    const { connection, outcome } = result;
    this.logger.info(
      {
        organizationId,
        connectionId: connection.id,
        providerId,
        mode,
        version: connection.active_version,
        keyId: connection.key_id,
        outcome,
      },
      'provider connection credentials sealed',
    );
    return result;
  }

  /**
   * Sets the organization's BYOK connection to the provider DISABLED; versions stay, and a later
   * PUT makes it ACTIVE again. A PLATFORM_MANAGED one is the operator's (403); disabling a
   * DISABLED connection changes nothing.
   */
  async disableProvider(organizationId: string, providerId: string): Promise<ProviderConnectionRecord> {
    return this.disable('provider', {
      find: (trx, lock) => this.store.findProvider(trx, organizationId, providerId, { lock }),
      shown: toProviderConnectionRow,
      target: { type: 'provider_connection', id: providerId, label: providerId },
      missing: `This organization has no connection to the provider ${JSON.stringify(providerId)}.`,
      refuse: (current) =>
        current.mode === 'PLATFORM_MANAGED'
          ? forbidden(
              'platform_managed_connection',
              `The ${providerId} connection is managed by the platform operator; the organization cannot change it.`,
            )
          : undefined,
      logged: { organizationId, providerId },
    });
  }

  async getChatApplication(organizationId: string): Promise<ChatApplicationConnectionRecord | undefined> {
    return this.store.findChatApplication(this.uow.executor, organizationId);
  }

  /** Creates (first PUT) or rotates the organization's chat-application connection; reactivates a DISABLED one. */
  async putChatApplication(
    organizationId: string,
    input: ChatApplicationCredentialInput,
  ): Promise<{ connection: ChatApplicationConnectionRecord; outcome: RotationOutcome }> {
    const keyring = await this.keyrings.keyring();
    const at = this.clock.now().toISOString();
    const result = await this.uow.run(async (trx) => {
      const claimed = await this.store.claimChatApplication(
        trx,
        { organizationId, appId: input.appId, botOpenId: input.botOpenId },
        at,
      );
      const connectionId = claimed.connection.id;
      const version = await this.store.nextVersion(trx, 'chatApplication', connectionId);
      const envelope = sealCredentials(
        encodeChatApplicationCredentials(input),
        { organizationId, connectionId, version },
        keyring,
      );
      await this.store.insertVersion(trx, 'chatApplication', { connectionId, version, envelope }, at);
      await this.store.activate(trx, 'chatApplication', connectionId, version, at, {
        app_id: input.appId,
        bot_open_id: input.botOpenId,
      });
      const outcome: RotationOutcome = claimed.created ? 'created' : 'rotated';
      const connection = (await this.store.findChatApplication(trx, organizationId))!;
      await recordChange(trx, {
        organizationId,
        target: { type: 'chat_application_connection', id: connectionId, label: null },
        before: claimed.created ? null : toChatApplicationConnection(claimed.connection),
        after: toChatApplicationConnection(connection),
      });
      return { connection, outcome };
    });
    const { connection, outcome } = result;
    this.logger.info(
      {
        organizationId,
        connectionId: connection.id,
        version: connection.active_version,
        keyId: connection.key_id,
        outcome,
      },
      'chat-application connection credentials sealed',
    );
    return result;
  }

  listCapabilities(organizationId: string): Promise<CapabilityConnectionRecord[]> {
    return this.store.listCapabilities(this.uow.executor, organizationId);
  }

  /**
   * Creates (first PUT) or rotates the organization's connection to an external capability:
   * the endpoint and its headers are sealed as a new version, which becomes the active one
   * (ACTIVE, also out of DISABLED); label, kind and endpoint are updated on the row. Header
   * values are secrets: sealed, never stored elsewhere, logged or returned.
   */
  async putCapability(
    organizationId: string,
    capabilityId: string,
    input: CapabilityConnectionInput,
  ): Promise<{ connection: CapabilityConnectionRecord; outcome: RotationOutcome }> {
    const problem = baseUrlProblem(input.endpointUrl);
    if (problem) throw badRequest(`endpointUrl ${problem}.`, [{ path: '/body/endpointUrl', message: problem }]);
    const headers = input.headers ?? {};
    const duplicate = duplicateHeaderName(Object.keys(headers));
    if (duplicate)
      throw badRequest(`headers names ${JSON.stringify(duplicate)} twice (header names are case-insensitive).`, [
        { path: '/body/headers', message: 'header names must differ case-insensitively' },
      ]);
    const keyring = await this.keyrings.keyring();
    const at = this.clock.now().toISOString();
    const row = { label: input.label, kind: input.kind, endpoint_url: input.endpointUrl };
    const result = await this.uow.run(async (trx) => {
      const claimed = await this.store.claimCapability(
        trx,
        { organizationId, capabilityId, label: input.label, kind: input.kind, endpointUrl: input.endpointUrl },
        at,
      );
      const connectionId = claimed.connection.id;
      const version = await this.store.nextVersion(trx, 'capability', connectionId);
      const envelope = sealCredentials(
        encodeCapabilityCredentials({ endpointUrl: input.endpointUrl, headers }),
        { organizationId, connectionId, version },
        keyring,
      );
      await this.store.insertVersion(trx, 'capability', { connectionId, version, envelope }, at);
      await this.store.activate(trx, 'capability', connectionId, version, at, row);
      const outcome: RotationOutcome = claimed.created ? 'created' : 'rotated';
      const connection = (await this.store.findCapability(trx, organizationId, capabilityId))!;
      // The row as the API shows it: endpoint and label, never the sealed headers.
      await recordChange(trx, {
        organizationId,
        target: { type: 'capability_connection', id: capabilityId, label: connection.label },
        before: claimed.created ? null : toCapabilityConnectionRow(claimed.connection),
        after: toCapabilityConnectionRow(connection),
      });
      return { connection, outcome };
    });
    const { connection, outcome } = result;
    this.logger.info(
      {
        organizationId,
        connectionId: connection.id,
        capabilityId,
        version: connection.active_version,
        keyId: connection.key_id,
        headerCount: Object.keys(headers).length,
        outcome,
      },
      'capability connection credentials sealed',
    );
    return result;
  }

  /**
   * Sets the capability connection DISABLED; versions stay, a later PUT reactivates it; a DISABLED one is left as it
   * is.
   */
  async disableCapability(organizationId: string, capabilityId: string): Promise<CapabilityConnectionRecord> {
    return this.disable('capability', {
      find: (trx, lock) => this.store.findCapability(trx, organizationId, capabilityId, { lock }),
      shown: toCapabilityConnectionRow,
      target: (current) => ({ type: 'capability_connection', id: capabilityId, label: current.label }),
      missing: `This organization has no connection to the capability ${JSON.stringify(capabilityId)}.`,
      logged: { organizationId, capabilityId },
    });
  }

  /**
   * Sets the connection DISABLED; its versions stay, and `activeVersion` still names the one a
   * later PUT supersedes. Disabling a DISABLED connection changes nothing.
   */
  async disableChatApplication(organizationId: string): Promise<ChatApplicationConnectionRecord> {
    return this.disable('chatApplication', {
      find: (trx, lock) => this.store.findChatApplication(trx, organizationId, { lock }),
      shown: toChatApplicationConnection,
      target: (current) => ({ type: 'chat_application_connection', id: current.id, label: null }),
      missing: 'This organization has no chat-application connection.',
      logged: { organizationId },
    });
  }

  /**
   * Sets a connection of any kind DISABLED in one transaction: 404 `connection_not_found` when
   * there is none, the kind's own refusal (a platform-managed provider), and no change at all
   * (not even `updatedAt`, no audit event) when it is DISABLED already. Versions stay; a later
   * PUT reactivates. The audit event shows the row as the API does (`shown`), never a secret.
   */
  private async disable<R extends { id: string; organization_id: string; status: ConnectionStatus }>(
    kind: ConnectionKind,
    how: {
      find: (trx: Executor, lock: boolean) => Promise<R | undefined>;
      shown: (row: R) => unknown;
      target: AuditedChange['target'] | ((current: R) => AuditedChange['target']);
      missing: string;
      refuse?: (current: R) => ApiError | undefined;
      logged: Record<string, string>;
    },
  ): Promise<R> {
    const at = this.clock.now().toISOString();
    const { connection, changed } = await this.uow.run(async (trx) => {
      const current = await how.find(trx, true);
      if (!current) throw notFound('connection_not_found', how.missing);
      const refusal = how.refuse?.(current);
      if (refusal) throw refusal;
      if (current.status === 'DISABLED') return { connection: current, changed: false };
      await this.store.setStatus(trx, kind, current.id, 'DISABLED', at);
      const disabled = (await how.find(trx, false))!;
      await recordChange(trx, {
        organizationId: current.organization_id,
        target: typeof how.target === 'function' ? how.target(current) : how.target,
        before: how.shown(current),
        after: how.shown(disabled),
      });
      return { connection: disabled, changed: true };
    });
    if (changed) this.logger.info({ ...how.logged, connectionId: connection.id, kind }, 'connection disabled');
    return connection;
  }
}

/** Seals, then wipes the plaintext buffer so the secret does not linger in it. */
function sealCredentials(plaintext: Buffer, binding: EnvelopeBinding, keyring: Keyring) {
  try {
    return seal(plaintext, binding, keyring);
  } finally {
    plaintext.fill(0);
  }
}
