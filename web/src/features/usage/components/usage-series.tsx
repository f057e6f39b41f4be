import { Anchor, Box, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useId, useMemo } from 'react';
import { Link, useLocation, useNavigation, useSearchParams } from 'react-router';
import { MessageRow } from '../../../components/message-row';
import { QueryError } from '../../../components/query-error';
import { formatDate } from '../../../lib/format';
import { tableWidth, WIDE_ONLY } from '../../../lib/narrow';
import { ScrollRegion } from '../../../components/scroll-region';
import { SelectField } from '../../../components/select-field';
import { usageCsvHref } from '../api/csv-export';
import { type SeriesQuery, useUsageSeries } from '../api/get-usage-series';
import { CONTAIN, Cost } from './cost';
import { CsvDownload } from './csv-download';
import { formatCount, formatUsd } from './report-model';
import {
  BUCKETS,
  GROUPINGS,
  type Measure,
  MEASURES,
  OTHER_KEY,
  readSeriesOptions,
  type Series,
  type SeriesOptions,
  stackSeries,
  withSeriesOptions,
} from './series-model';

const NOWRAP = { whiteSpace: 'nowrap' } as const;
/** One colour per band, in band order; "Other" is always the last band and grey. */
const BAND_COLORS = ['blue', 'teal', 'grape', 'orange', 'cyan', 'pink', 'lime', 'indigo'].map(
  (c) => `var(--mantine-color-${c}-filled)`,
);
const OTHER_COLOR = 'var(--mantine-color-gray-6)';
const TEXT_COLOR = 'var(--mantine-color-text)';
const GRID_COLOR = 'var(--mantine-color-default-border)';

const CHART_H = 200;
const AXIS_W = 64;
const AXIS_H = 22;

const formatMeasure = (value: number, measure: Measure) => (measure === 'cost' ? formatUsd(value) : formatCount(value));
const bucketName = { day: 'day', week: 'week', month: 'month' } as const;

/**
 * Usage over time: the page's window in buckets of a day, a week or a month, stacked by project,
 * model, provider or role, with the same figures as a table behind a disclosure and as the
 * server's CSV. The series needs both ends of the window.
 */
export function UsageSeries({
  orgSlug,
  window,
  folderId,
  describedWindow,
}: {
  orgSlug: string;
  window: { from?: string; to?: string; memberId?: string };
  folderId: string | undefined;
  describedWindow: string;
}) {
  const [params, setParams] = useSearchParams();
  const options = readSeriesOptions(params);
  // A picker change is a navigation whose loader fetches the next series before the URL changes:
  // meanwhile the pickers show the pending URL's choices, and a second change builds on it.
  const navigation = useNavigation();
  const location = useLocation();
  const pending =
    navigation.state !== 'idle' && navigation.location?.pathname === location.pathname
      ? new URLSearchParams(navigation.location.search)
      : null;
  const chosen = readSeriesOptions(pending ?? params);
  const query: SeriesQuery | null =
    window.from && window.to
      ? {
          from: window.from,
          to: window.to,
          bucket: options.bucket,
          groupBy: options.groupBy,
          ...(folderId ? { folderId } : {}),
          ...(window.memberId ? { memberId: window.memberId } : {}),
        }
      : null;
  // By member, a member's row opens the page filtered to that member (the series then by project).
  const memberSearch = (memberId: string) => {
    const next = new URLSearchParams(params);
    next.set('memberId', memberId);
    next.delete('groupBy');
    return `?${next.toString()}`;
  };
  const series = useUsageSeries(orgSlug, query);
  const setOption = (change: Partial<SeriesOptions>) =>
    setParams(withSeriesOptions(pending ?? params, { ...chosen, ...change }), { replace: true });
  const updating = pending !== null || series.isFetching;
  const grouping = GROUPINGS.find((g) => g.value === options.groupBy)!.label.toLowerCase();

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="usage-series-heading">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id="usage-series-heading">
            Over time
          </Title>
          {query && (
            <CsvDownload
              href={usageCsvHref(orgSlug, '/usage/series', query)}
              disabled={!series.data || series.isError || updating}
            >
              Download series CSV
            </CsvDownload>
          )}
        </Group>
        <Group gap="sm" wrap="wrap" align="flex-end">
          <SelectField
            label="Bucket"
            size="xs"
            data={BUCKETS}
            value={chosen.bucket}
            onChange={(value) => setOption({ bucket: value })}
          />
          <SelectField
            label="Group by"
            size="xs"
            data={GROUPINGS}
            value={chosen.groupBy}
            onChange={(value) => setOption({ groupBy: value })}
          />
          <SelectField
            label="Measure"
            size="xs"
            data={MEASURES}
            value={chosen.measure}
            onChange={(value) => setOption({ measure: value })}
          />
        </Group>
        <Group gap="xs" role="status" aria-live="polite" mih={20}>
          {query && updating && <Loader size="xs" aria-hidden="true" />}
          <Text size="sm" c="dimmed" data-testid="usage-series-status">
            {!query
              ? 'Pick a window with a start and an end (a preset other than All time, or a range) ' +
                'to see usage over time.'
              : series.isPending
                ? 'Loading the series…'
                : updating
                  ? 'Updating the series…'
                  : ''}
          </Text>
        </Group>
        {query && series.isError ? (
          <QueryError error={series.error} title="Could not load the series" />
        ) : query && series.data ? (
          <SeriesView
            series={series.data}
            options={options}
            groupHref={options.groupBy === 'member' ? memberSearch : undefined}
            title={
              `${MEASURES.find((m) => m.value === options.measure)!.label} per ${bucketName[options.bucket]}, ` +
              `by ${grouping}, ${describedWindow} (UTC)`
            }
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

/** The chart, its legend and the table of a series. */
export function SeriesView({
  series,
  options,
  title,
  groupHref,
}: {
  series: Series;
  options: SeriesOptions;
  title: string;
  /** Where a group's row links to, when its groups have pages of their own. */
  groupHref?: ((key: string) => string) | undefined;
}) {
  const stacked = useMemo(() => stackSeries(series, options.measure), [series, options.measure]);
  const hasRuns = series.buckets.some((b) => b.groups.length > 0);
  return (
    <Stack gap="sm">
      {hasRuns ? (
        <>
          <Legend bands={stacked.bands} measure={options.measure} />
          <SeriesChart {...stacked} measure={options.measure} title={title} />
          {options.measure === 'cost' && series.buckets.some((b) => b.groups.some((g) => g.costUsd === null)) && (
            <Text size="xs" c="dimmed">
              Runs with an unknown cost add nothing to the bars; the table marks their cost unknown.
            </Text>
          )}
        </>
      ) : (
        <Text c="dimmed" size="sm">
          No runs in this window.
        </Text>
      )}
      {series.overlapping && (
        <Text size="xs" c="dimmed" data-testid="usage-series-overlapping">
          A run counts for every team its member was in at the time, so the teams can add up to more than the
          organization spent.
        </Text>
      )}
      <Box component="details" data-testid="usage-series-details">
        <Text component="summary" size="sm" style={{ cursor: 'pointer' }}>
          The series as a table
        </Text>
        <SeriesTable series={series} groupHref={groupHref} />
      </Box>
    </Stack>
  );
}

function Legend({ bands, measure }: { bands: ReturnType<typeof stackSeries>['bands']; measure: Measure }) {
  return (
    <Group component="ul" gap="md" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Legend">
      {bands.map((band, i) => (
        <Group component="li" key={band.key} gap={6} wrap="nowrap">
          <Box
            w={12}
            h={12}
            style={{ background: colorOf(i, bands.length, band.key), borderRadius: 2, flex: 'none' }}
          />
          <Text size="xs" lineClamp={1} maw={220} title={band.label}>
            {band.label} · {formatMeasure(band.total, measure)}
          </Text>
        </Group>
      ))}
    </Group>
  );
}

const colorOf = (index: number, count: number, key: string) =>
  key === OTHER_KEY && index === count - 1 ? OTHER_COLOR : BAND_COLORS[index % BAND_COLORS.length]!;

/**
 * Stacked columns, one per bucket, drawn at the container's width (text never scaled). The figures
 * are in the legend and the table; the image's description says the total and the highest bucket.
 */
function SeriesChart({
  bands,
  buckets,
  measure,
  title,
}: ReturnType<typeof stackSeries> & { measure: Measure; title: string }) {
  const { ref, width } = useElementSize();
  const titleId = useId();
  const descId = useId();
  const max = Math.max(0, ...buckets.map((b) => b.total));
  const plotW = Math.max(0, width - AXIS_W);
  const step = buckets.length > 0 ? plotW / buckets.length : 0;
  const barW = Math.max(1, step * 0.8);
  const y = (v: number) => (max > 0 ? (v / max) * CHART_H : 0);
  const highest = buckets.reduce((best, b) => (b.total > best.total ? b : best), buckets[0]!);
  const total = buckets.reduce((sum, b) => sum + b.total, 0);
  const description =
    `Total ${formatMeasure(total, measure)} over ${formatCount(buckets.length)} buckets; ` +
    `highest ${formatMeasure(highest.total, measure)} in the bucket of ${formatDate(highest.start)}. ` +
    'Every figure is in the table below.';
  const labelled = [0, Math.floor((buckets.length - 1) / 2), buckets.length - 1].filter(
    (i, k, all) => all.indexOf(i) === k,
  );

  return (
    <Box ref={ref} data-testid="usage-series-chart">
      {width > 0 && (
        <svg
          role="img"
          aria-labelledby={`${titleId} ${descId}`}
          width={width}
          height={CHART_H + AXIS_H + 8}
          viewBox={`0 0 ${width} ${CHART_H + AXIS_H + 8}`}
          style={{ display: 'block', fontFamily: 'var(--mantine-font-family)' }}
        >
          <title id={titleId}>{title}</title>
          <desc id={descId}>{description}</desc>
          {[0, 0.5, 1].map((f) => (
            <g key={f}>
              <line
                x1={AXIS_W}
                x2={width}
                y1={8 + CHART_H - f * CHART_H}
                y2={8 + CHART_H - f * CHART_H}
                stroke={GRID_COLOR}
              />
              <text x={AXIS_W - 6} y={8 + CHART_H - f * CHART_H + 4} fontSize={11} textAnchor="end" fill={TEXT_COLOR}>
                {formatMeasure(max * f, measure)}
              </text>
            </g>
          ))}
          {buckets.map((bucket, i) => {
            let top = 8 + CHART_H;
            return (
              <g key={bucket.start} data-testid="usage-series-bucket">
                <title>{`${formatDate(bucket.start)}: ${formatMeasure(bucket.total, measure)}`}</title>
                {bucket.values.map((value, b) => {
                  if (value <= 0) return null;
                  const h = Math.max(1, y(value));
                  top -= h;
                  return (
                    <rect
                      key={bands[b]!.key}
                      x={AXIS_W + i * step + (step - barW) / 2}
                      y={top}
                      width={barW}
                      height={h}
                      fill={colorOf(b, bands.length, bands[b]!.key)}
                    />
                  );
                })}
              </g>
            );
          })}
          {labelled.map((i) => (
            <text
              key={i}
              x={Math.min(Math.max(AXIS_W + (i + 0.5) * step, AXIS_W + 30), width - 40)}
              y={8 + CHART_H + 16}
              fontSize={11}
              textAnchor="middle"
              fill={TEXT_COLOR}
            >
              {formatDate(buckets[i]!.start)}
            </text>
          ))}
        </svg>
      )}
    </Box>
  );
}

/** Every bucket and group, an empty bucket as one line saying so. */
function SeriesTable({ series, groupHref }: { series: Series; groupHref?: ((key: string) => string) | undefined }) {
  return (
    <ScrollRegion label="Usage over time as a table" style={CONTAIN}>
      <Table striped miw={tableWidth(560)} aria-label="Usage over time" data-testid="usage-series-table" mt="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th style={NOWRAP}>From</Table.Th>
            <Table.Th>Group</Table.Th>
            <Table.Th ta="right">Runs</Table.Th>
            <Table.Th ta="right" style={NOWRAP} {...WIDE_ONLY}>
              Input tokens
            </Table.Th>
            <Table.Th ta="right" style={NOWRAP} {...WIDE_ONLY}>
              Output tokens
            </Table.Th>
            <Table.Th ta="right" style={NOWRAP}>
              Cost (USD)
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {series.buckets.length === 0 && <MessageRow columns={6}>The window is empty.</MessageRow>}
          {series.buckets.flatMap((bucket) =>
            bucket.groups.length === 0
              ? [
                  <Table.Tr key={bucket.start}>
                    <Table.Td style={NOWRAP}>{formatDate(bucket.start)}</Table.Td>
                    <Table.Td colSpan={5}>
                      <Text span size="sm" c="dimmed">
                        No runs
                      </Text>
                    </Table.Td>
                  </Table.Tr>,
                ]
              : bucket.groups.map((g) => (
                  <Table.Tr key={`${bucket.start} ${g.key}`}>
                    <Table.Td style={NOWRAP}>{formatDate(bucket.start)}</Table.Td>
                    <Table.Th scope="row" fw={500}>
                      {groupHref && g.key !== null ? (
                        <Anchor component={Link} to={groupHref(g.key)} size="sm">
                          {g.label}
                        </Anchor>
                      ) : (
                        g.label
                      )}
                    </Table.Th>
                    <Table.Td ta="right">{formatCount(g.runCount)}</Table.Td>
                    <Table.Td ta="right" {...WIDE_ONLY}>
                      {formatCount(g.inputTokens)}
                    </Table.Td>
                    <Table.Td ta="right" {...WIDE_ONLY}>
                      {formatCount(g.outputTokens)}
                    </Table.Td>
                    <Table.Td ta="right" style={NOWRAP}>
                      <Cost value={g.costUsd} />
                    </Table.Td>
                  </Table.Tr>
                )),
          )}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}
