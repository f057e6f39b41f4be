import type { Response } from 'express';
import type { Schema } from '../api/types.js';
import { ConnectionUnavailableError, type CredentialResolver } from '../connections/resolver.js';
import { ApiError, conflict, notFound } from '../errors/api-error.js';
import type { OrganizationRecord } from '../orgs/store.js';
import { recordResolveOutcome, type ResolveKind } from './resolve-outcome.js';

type Request = Schema<'ResolveRuntimeCredentialRequest'>;
type Answer = Schema<'RuntimeCredentials'>;

/**
 * `resolveRuntimeCredential`: the in-process resolver (src/connections/resolver.ts), over HTTP for
 * the host's runtime. It refuses what the resolver refuses, for the same reasons: no connection
 * (404), a DISABLED one or one without credentials (409, the resolver's own message). The
 * resolver's key and envelope failures stay server faults. Every call's outcome is recorded for
 * `/metrics`; nothing of the answer is logged.
 */
export class RuntimeResolve {
  constructor(
    private readonly organizationBySlug: (slug: string) => Promise<OrganizationRecord | undefined>,
    private readonly resolver: CredentialResolver,
  ) {}

  async resolve(orgSlug: string, request: Request, res: Response): Promise<Answer> {
    const kind: ResolveKind =
      request.providerId !== undefined
        ? 'provider'
        : request.capabilityId !== undefined
          ? 'capability'
          : 'chatApplication';
    try {
      const organization = await this.organizationBySlug(orgSlug);
      if (!organization) throw notFound('org_not_found', `No organization "${orgSlug}".`);
      const answer = await this.answer(organization.id, kind, request);
      recordResolveOutcome(res, { kind, outcome: 'resolved' });
      return answer;
    } catch (err) {
      if (err instanceof ConnectionUnavailableError) {
        recordResolveOutcome(res, { kind, outcome: err.reason });
        if (err.reason === 'not_found') throw notFound('connection_not_found', err.message);
        throw conflict('connection_unavailable', err.message);
      }
      recordResolveOutcome(res, { kind, outcome: err instanceof ApiError ? 'not_found' : 'error' });
      throw err;
    }
  }

  private async answer(organizationId: string, kind: ResolveKind, request: Request): Promise<Answer> {
    if (kind === 'provider') {
      const {
        connectionId,
        version,
        keyId: _key,
        ...provider
      } = await this.resolver.resolveProviderCredentials(organizationId, request.providerId!);
      return { kind, connectionId, version, provider };
    }
    if (kind === 'capability') {
      const {
        connectionId,
        version,
        keyId: _key,
        ...capability
      } = await this.resolver.resolveCapabilityCredentials(organizationId, request.capabilityId!);
      return { kind, connectionId, version, capability };
    }
    const {
      connectionId,
      version,
      keyId: _key,
      ...chatApplication
    } = await this.resolver.resolveChatApplicationCredentials(organizationId);
    return { kind, connectionId, version, chatApplication };
  }
}
