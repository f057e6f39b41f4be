import type { QueryClient } from '@tanstack/react-query';
import { getOrgUsageBreakdownQueryKey } from '../../../lib/queries/get-usage-breakdown';
import { getCapabilityConnectionsQueryOptions } from './get-capability-connections';
import { getChatApplicationQueryOptions } from './get-chat-application';
import { getProviderConnectionsQueryOptions } from './get-provider-connections';

export const invalidateProviderConnections = (qc: QueryClient, orgSlug: string) =>
  qc.invalidateQueries({ queryKey: getProviderConnectionsQueryOptions(orgSlug).queryKey });

export const invalidateChatApplication = (qc: QueryClient, orgSlug: string) =>
  qc.invalidateQueries({ queryKey: getChatApplicationQueryOptions(orgSlug).queryKey });

/** A capability's label also names it in the usage breakdown. */
export const invalidateCapabilityConnections = (qc: QueryClient, orgSlug: string) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: getCapabilityConnectionsQueryOptions(orgSlug).queryKey }),
    qc.invalidateQueries({ queryKey: getOrgUsageBreakdownQueryKey(orgSlug) }),
  ]);

/**
 * Options of every mutation whose request carries a secret. A mutation keeps its variables (the
 * request) while it is in the mutation cache; with no cache time it leaves as soon as the dialog
 * that ran it resets it, so no secret outlives the request in memory the app can reach.
 */
export const SECRET_MUTATION = { gcTime: 0 } as const;
