import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { $api, jsonAnswer, type Schemas } from '../../../lib/api-client';

export type SeriesBucket = Schemas['UsageSeriesBucketSpan'];
export type SeriesGroupBy = Schemas['UsageSeriesGroupBy'];
export type SeriesQuery = {
  from: string;
  to: string;
  bucket: SeriesBucket;
  groupBy: SeriesGroupBy;
  folderId?: string;
  memberId?: string;
};

export const getUsageSeriesQueryOptions = (orgSlug: string, query: SeriesQuery) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/usage/series', { params: { path: { orgSlug }, query } });
/** The previous series stays on screen (marked as updating) while the next one loads. */
export const useUsageSeries = (orgSlug: string, query: SeriesQuery | null) =>
  useQuery({
    ...getUsageSeriesQueryOptions(orgSlug, query ?? { from: '', to: '', bucket: 'day', groupBy: 'project' }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    select: jsonAnswer,
  });
