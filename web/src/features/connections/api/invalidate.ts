import type { QueryClient } from '@tanstack/react-query';

export const invalidateProviderConnections = (qc: QueryClient) =>
  qc.invalidateQueries({ queryKey: ['get', '/api/org/{orgSlug}/provider-connections'] });

export const invalidateChatApplication = (qc: QueryClient) =>
  qc.invalidateQueries({ queryKey: ['get', '/api/org/{orgSlug}/imapp-application-connection'] });

/** A capability's label also names it in the usage breakdown. */
export const invalidateCapabilityConnections = (qc: QueryClient) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: ['get', '/api/org/{orgSlug}/capability-connections'] }),
    qc.invalidateQueries({ queryKey: ['get', '/api/org/{orgSlug}/usage/breakdown'] }),
  ]);

/**
 * Options of every mutation whose request carries a secret. A mutation keeps its variables (the
 * request) while it is in the mutation cache; with no cache time it leaves as soon as the dialog
 * that ran it resets it, so no secret outlives the request in memory the app can reach.
 */
export const SECRET_MUTATION = { gcTime: 0 } as const;
