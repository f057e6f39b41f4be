import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { $api, orgPath, orgQueryKey } from '../../../lib/api-client';

export const getWebhooksQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/webhooks', orgPath(orgSlug));
export const useWebhooks = (orgSlug: string) => useQuery(getWebhooksQueryOptions(orgSlug));

const deliveriesQueryOptions = (orgSlug: string, webhookId: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/webhooks/{webhookId}/deliveries', {
    params: { path: { orgSlug, webhookId }, query: { limit: 50 } },
  });
/** The endpoint's latest deliveries; refreshed while any of them still waits for an attempt. */
export const useDeliveries = (orgSlug: string, webhookId: string) =>
  useQuery({
    ...deliveriesQueryOptions(orgSlug, webhookId),
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((delivery) => delivery.status === 'pending') ? 2000 : false,
  });

/** Every list of the area: an endpoint's change shows in the list, a delivery in its endpoint's list. */
const invalidateWebhooks = (qc: QueryClient, orgSlug: string) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: orgQueryKey('/api/org/{orgSlug}/webhooks', orgSlug) }),
    qc.invalidateQueries({ queryKey: orgQueryKey('/api/org/{orgSlug}/webhooks/{webhookId}/deliveries', orgSlug) }),
  ]);

export const useCreateWebhook = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/webhooks', {
    onSuccess: (_data, { params }) => invalidateWebhooks(qc, params.path.orgSlug),
  });
};

export const useUpdateWebhook = () => {
  const qc = useQueryClient();
  return $api.useMutation('patch', '/api/org/{orgSlug}/webhooks/{webhookId}', {
    onSuccess: (_data, { params }) => invalidateWebhooks(qc, params.path.orgSlug),
  });
};

export const useDeleteWebhook = () => {
  const qc = useQueryClient();
  return $api.useMutation('delete', '/api/org/{orgSlug}/webhooks/{webhookId}', {
    onSuccess: (_data, { params }) => invalidateWebhooks(qc, params.path.orgSlug),
  });
};

export const useRotateWebhookSecret = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/webhooks/{webhookId}/rotate-secret', {
    onSuccess: (_data, { params }) => invalidateWebhooks(qc, params.path.orgSlug),
  });
};

export const useTestWebhook = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/webhooks/{webhookId}/test', {
    onSuccess: (_data, { params }) => invalidateWebhooks(qc, params.path.orgSlug),
  });
};

export const useRedeliver = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', {
    onSuccess: (_data, { params }) => invalidateWebhooks(qc, params.path.orgSlug),
  });
};
