import { Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { QueryError } from '../../../components/query-error';
import { SelectField } from '../../../components/select-field';
import { useOrg } from '../../../lib/authorization';
import { type MyUsageQuery, useMyUsage } from '../api/get-my-usage';
import { sortRows } from './report-model';
import { apiQuery, describeWindow, nextSort, type Preset, presetRange, readSort, withSort } from './usage-filter';
import { UsageReportTable } from './usage-report-table';
import { SeriesView } from './usage-series';

/** The windows a member picks from; each has both ends, as the series needs. */
const WINDOWS: { value: Exclude<Preset, 'all-time'>; label: string }[] = [
  { value: 'this-month', label: 'This month' },
  { value: 'last-30-days', label: 'Last 30 days' },
];

/**
 * What the signed-in member spent: the runs they started and those of their API tokens, per
 * project and per day, over this month or the last 30 days (the URL's `window`). No admin right.
 */
export function MyUsage() {
  const { org } = useOrg();
  const [params, setParams] = useSearchParams();
  const preset = WINDOWS.find((w) => w.value === params.get('window'))?.value ?? 'this-month';
  const range = presetRange(preset, new Date());
  const query = apiQuery({ ...range, folderId: null }) as MyUsageQuery;
  const usage = useMyUsage(org.slug, query);
  const sort = readSort(params);
  const rows = useMemo(() => sortRows(usage.data?.projects ?? [], sort), [usage.data, sort]);
  const base = `/o/${encodeURIComponent(org.slug)}`;
  const describedWindow = describeWindow({ ...range, folderId: null });

  return (
    <Stack gap="md">
      <Group gap="sm" wrap="wrap" align="flex-end">
        <SelectField
          label="Window"
          size="xs"
          data={WINDOWS}
          value={preset}
          onChange={(value) => {
            const next = new URLSearchParams(params);
            if (value === 'this-month') next.delete('window');
            else next.set('window', value);
            setParams(next, { replace: true });
          }}
        />
        <Group gap="xs" role="status" aria-live="polite" mih={20}>
          {usage.isFetching && <Loader size="xs" aria-hidden="true" />}
          <Text size="sm" c="dimmed">
            {usage.isPending ? 'Loading your usage…' : usage.isFetching ? 'Updating your usage…' : describedWindow}
          </Text>
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        The runs you started, and those started through your API tokens. Days are UTC.
      </Text>
      {usage.isError ? (
        <QueryError error={usage.error} title="Could not load your usage" />
      ) : usage.data ? (
        <>
          <UsageReportTable
            rows={rows}
            totals={usage.data.totals}
            sort={sort}
            onSort={(key) => setParams(withSort(params, nextSort(sort, key)), { replace: true })}
            projectHref={(projectId) => `${base}/projects/${encodeURIComponent(projectId)}`}
          />
          <Paper withBorder p="md" component="section" aria-labelledby="my-usage-series-heading">
            <Stack gap="sm">
              <Title order={2} size="h4" id="my-usage-series-heading">
                Over time
              </Title>
              <SeriesView
                series={usage.data.series}
                options={{ bucket: 'day', groupBy: 'project', measure: 'cost' }}
                title={`Your cost per day, by project, ${describedWindow} (UTC)`}
              />
            </Stack>
          </Paper>
        </>
      ) : null}
    </Stack>
  );
}
