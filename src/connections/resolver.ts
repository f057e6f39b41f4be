import { open, type Envelope } from '../crypto/envelope.js';
import { CredentialError, TamperedEnvelopeError } from '../crypto/errors.js';
import type { KeyringSource } from '../crypto/keyring.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import {
  decodeCapabilityCredentials,
  decodeChatApplicationCredentials,
  decodeProviderCredentials,
  type CapabilityCredentials,
  type ChatApplicationCredentialInput,
  type ProviderCredentialInput,
} from './credentials.js';
import type { CapabilityKind, ConnectionMode, ConnectionStore, SealedConnection } from './store.js';

/** Why there is nothing to resolve: no such connection, a DISABLED one, or one never given credentials. */
export type UnavailableReason = 'not_found' | 'disabled' | 'draft';

export class ConnectionUnavailableError extends CredentialError {
  readonly code = 'connection_unavailable';

  constructor(
    readonly reason: UnavailableReason,
    message: string,
  ) {
    super(message);
    this.name = 'ConnectionUnavailableError';
  }
}

/** The active version's credentials of a provider connection, with where they came from. */
export type ResolvedProviderCredentials = ProviderCredentialInput & {
  connectionId: string;
  providerId: string;
  mode: ConnectionMode;
  version: number;
  keyId: string;
};

/** The active version's credentials of the chat-application connection. */
export type ResolvedChatApplicationCredentials = ChatApplicationCredentialInput & {
  connectionId: string;
  version: number;
  keyId: string;
};

/**
 * The active version of an external-capability connection: the endpoint as sealed with its
 * headers (never the row's copy, which the database could have altered) and the headers.
 */
export type ResolvedCapabilityCredentials = CapabilityCredentials & {
  connectionId: string;
  capabilityId: string;
  label: string;
  kind: CapabilityKind;
  version: number;
  keyId: string;
};

/**
 * The one way the agent runtime gets credentials: the decrypted fields of a connection's
 * ACTIVE version, opened with exactly the master key its envelope names. It fails closed, each
 * failure with its own error class: ConnectionUnavailableError (none, DISABLED or DRAFT),
 * UnknownKeyIdError, MissingKeyError, TamperedEnvelopeError. There is no fallback key and no
 * plaintext path. Callers must not log the result.
 */
export class CredentialResolver {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: ConnectionStore,
    private readonly keyrings: KeyringSource,
  ) {}

  async resolveProviderCredentials(organizationId: string, providerId: string): Promise<ResolvedProviderCredentials> {
    const sealed = await this.store.sealedProvider(this.uow.executor, organizationId, providerId);
    const { connection, envelope, version } = usable(sealed, `provider connection "${providerId}"`);
    const plaintext = open(
      envelope,
      { organizationId, connectionId: connection.id, version },
      await this.keyrings.keyring(),
    );
    return {
      ...decodeProviderCredentials(plaintext),
      connectionId: connection.id,
      providerId: connection.provider_id,
      mode: connection.mode,
      version,
      keyId: envelope.keyId,
    };
  }

  async resolveCapabilityCredentials(
    organizationId: string,
    capabilityId: string,
  ): Promise<ResolvedCapabilityCredentials> {
    const sealed = await this.store.sealedCapability(this.uow.executor, organizationId, capabilityId);
    const { connection, envelope, version } = usable(sealed, `capability connection "${capabilityId}"`);
    const plaintext = open(
      envelope,
      { organizationId, connectionId: connection.id, version },
      await this.keyrings.keyring(),
    );
    return {
      ...decodeCapabilityCredentials(plaintext),
      connectionId: connection.id,
      capabilityId: connection.capability_id,
      label: connection.label,
      kind: connection.kind,
      version,
      keyId: envelope.keyId,
    };
  }

  async resolveChatApplicationCredentials(organizationId: string): Promise<ResolvedChatApplicationCredentials> {
    const sealed = await this.store.sealedChatApplication(this.uow.executor, organizationId);
    const { connection, envelope, version } = usable(sealed, 'chat-application connection');
    const plaintext = open(
      envelope,
      { organizationId, connectionId: connection.id, version },
      await this.keyrings.keyring(),
    );
    return {
      ...decodeChatApplicationCredentials(plaintext),
      connectionId: connection.id,
      version,
      keyId: envelope.keyId,
    };
  }
}

function usable<R extends { id: string; status: string; active_version: number | null }>(
  sealed: SealedConnection<R> | undefined,
  what: string,
): { connection: R; envelope: Envelope; version: number } {
  if (!sealed) throw new ConnectionUnavailableError('not_found', `The organization has no ${what}.`);
  const { connection, envelope } = sealed;
  if (connection.status === 'DISABLED') throw new ConnectionUnavailableError('disabled', `The ${what} is DISABLED.`);
  if (connection.status !== 'ACTIVE' || connection.active_version === null) {
    throw new ConnectionUnavailableError('draft', `The ${what} has no active credentials.`);
  }
  // The row says ACTIVE at version n, and version n is not there: the database was edited.
  if (!envelope)
    throw new TamperedEnvelopeError(`The active version ${connection.active_version} of the ${what} is missing.`);
  return { connection, envelope, version: connection.active_version };
}
