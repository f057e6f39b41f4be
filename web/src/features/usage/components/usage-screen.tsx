import { Alert, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useLocation, useNavigation, useSearchParams } from 'react-router';
import { QueryError } from '../../../components/query-error';
import { useOrg } from '../../../lib/authorization';
import { useExplorer } from '../../../lib/queries/get-explorer';
import { useMembers } from '../../../lib/queries/get-members';
import { useUsageBreakdown } from '../../../lib/queries/get-usage-breakdown';
import { useUsageReport } from '../api/get-usage-report';
import { usageCsvHref } from '../api/csv-export';
import { CsvDownload } from './csv-download';
import { formatCount, sortRows } from './report-model';
import { CHART_MAX_PROJECTS, UsageChart } from './usage-chart';
import { UsageBreakdown } from './usage-breakdown';
import {
  apiQuery,
  breakdownQuery,
  describeWindow,
  nextSort,
  readFilter,
  readSort,
  type SortKey,
  type UsageFilter,
  withFilter,
  withSort,
} from './usage-filter';
import { UsageFilters } from './usage-filters';
import { UsageReportTable } from './usage-report-table';
import { UsageSeries } from './usage-series';

/** The usage report of the organization: the filter and the sort are the URL's search params. */
export function UsageScreen() {
  const { org } = useOrg();
  const [params, setParams] = useSearchParams();
  const filter = readFilter(params);
  const sort = readSort(params);
  const query = apiQuery(filter);
  const report = useUsageReport(org.slug, query);
  const breakdown = useUsageBreakdown(org.slug, breakdownQuery(query));
  const explorer = useExplorer(org.slug);
  const rows = useMemo(() => sortRows(report.data?.projects ?? [], sort), [report.data, sort]);
  const base = `/o/${encodeURIComponent(org.slug)}`;

  const setFilter = (next: UsageFilter) => setParams(withFilter(params, next));
  const setSort = (key: SortKey) => setParams(withSort(params, nextSort(sort, key)), { replace: true });
  // A new filter is a navigation: the route's loader fetches its report before the URL changes,
  // so the pending state is the router's as well as the queries'.
  const navigation = useNavigation();
  const location = useLocation();
  const navigating = navigation.state !== 'idle' && navigation.location?.pathname === location.pathname;
  const updating = navigating || report.isFetching || breakdown.isFetching;

  return (
    <Stack gap="lg">
      <UsageFilters filter={filter} explorer={explorer.data} pending={updating} onChange={setFilter} />
      {explorer.isError && <QueryError error={explorer.error} title="Could not load the folders" />}
      {filter.memberId && (
        <MemberFilter memberId={filter.memberId} clear={() => setFilter({ ...filter, memberId: null })} />
      )}

      <Group gap="xs" role="status" aria-live="polite" mih={24}>
        {updating && <Loader size="xs" aria-hidden="true" />}
        <Text size="sm" c="dimmed" data-testid="usage-summary">
          {report.isPending
            ? 'Loading the report…'
            : updating
              ? 'Updating the report…'
              : report.data
                ? `${describeWindow(filter)} (UTC) · ${formatCount(report.data.projects.length)} ` +
                  `${report.data.projects.length === 1 ? 'project' : 'projects'}`
                : ''}
        </Text>
      </Group>

      <Paper withBorder p="md" component="section" aria-labelledby="usage-per-project">
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <Title order={2} size="h4" id="usage-per-project">
              Per project
            </Title>
            <CsvDownload
              href={usageCsvHref(org.slug, '/usage', query)}
              disabled={!report.data || report.isError || updating}
            >
              Download CSV
            </CsvDownload>
          </Group>
          {report.isError ? (
            <QueryError error={report.error} title="Could not load the usage report" />
          ) : report.data ? (
            <>
              <UsageReportTable
                rows={rows}
                totals={report.data.totals}
                sort={sort}
                onSort={setSort}
                projectHref={(id) => `${base}/projects/${encodeURIComponent(id)}`}
              />
              <TotalsNote totals={report.data.totals} />
            </>
          ) : null}
        </Stack>
      </Paper>

      {report.data && !report.isError && (
        <Paper withBorder p="md" component="section" aria-labelledby="usage-chart-heading">
          <Title order={2} size="h4" id="usage-chart-heading" mb="sm">
            Cost and tokens per project
          </Title>
          <UsageChart rows={rows.slice(0, CHART_MAX_PROJECTS)} total={rows.length} />
          {rows.length > CHART_MAX_PROJECTS && (
            <Text size="xs" c="dimmed" mt="xs">
              The first {CHART_MAX_PROJECTS} of {rows.length} projects in the table's order; sort the table to chart
              others.
            </Text>
          )}
        </Paper>
      )}

      <UsageSeries
        orgSlug={org.slug}
        window={query}
        folderId={query.folderId}
        describedWindow={describeWindow(filter)}
      />

      <Paper withBorder p="md" component="section" aria-labelledby="usage-breakdown-heading">
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <Title order={2} size="h4" id="usage-breakdown-heading">
              Breakdown
            </Title>
            <CsvDownload
              href={usageCsvHref(org.slug, '/usage/breakdown', breakdownQuery(query))}
              disabled={!breakdown.data || breakdown.isError || updating}
            >
              Download breakdown CSV
            </CsvDownload>
          </Group>
          {filter.memberId && (
            <Text size="sm" c="dimmed">
              The breakdown counts the whole organization’s runs, not only this member’s.
            </Text>
          )}
          {breakdown.isError ? (
            <QueryError error={breakdown.error} title="Could not load the breakdown" />
          ) : breakdown.data ? (
            <UsageBreakdown breakdown={breakdown.data} />
          ) : null}
        </Stack>
      </Paper>
    </Stack>
  );
}

const MEMBER_FILTER_NOTE =
  'The report and the series count only the runs this member is accountable for: their own and their API tokens’.';

/** The member the page is filtered to, by name once the members are loaded, and the way back to everyone. */
function MemberFilter({ memberId, clear }: { memberId: string; clear: () => void }) {
  const { org } = useOrg();
  const members = useMembers(org.slug);
  const member = members.data?.members.find((m) => m.userId === memberId);
  return (
    <Alert variant="light" data-testid="usage-member-filter" title={`Only ${member?.displayName ?? memberId}`}>
      <Group justify="space-between" gap="xs">
        <Text size="sm">{MEMBER_FILTER_NOTE}</Text>
        <Button size="xs" variant="default" onClick={clear}>
          Show everyone
        </Button>
      </Group>
    </Alert>
  );
}

/** A total that leaves runs out says so: it is what is known, not what was spent. */
function TotalsNote({ totals }: { totals: { runCount: number; runsWithoutCost: number; costUsd: number | null } }) {
  if (totals.runsWithoutCost === 0) return null;
  const text =
    totals.costUsd === null
      ? `No run in this window has a known cost, so the total cost is unknown (not zero).`
      : `${formatCount(totals.runsWithoutCost)} of ${formatCount(totals.runCount)} runs have no known cost: ` +
        'the total cost counts only the known costs, so the real total is higher.';
  return (
    <Alert color="yellow" variant="light" data-testid="usage-unknown-costs">
      {text}
    </Alert>
  );
}
