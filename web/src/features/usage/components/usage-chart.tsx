import { Box, Group, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useId } from 'react';
import { formatCount, formatUsd, type ProjectRow } from './report-model';

/** More bars than this stop being readable; the table has every row. */
export const CHART_MAX_PROJECTS = 12;

const COST_COLOR = 'var(--mantine-color-blue-filled)';
const TOKENS_COLOR = 'var(--mantine-color-teal-filled)';
const TEXT_COLOR = 'var(--mantine-color-text)';
const DIMMED_COLOR = 'var(--mantine-color-dimmed)';

const LABEL_H = 20;
const BAR_H = 14;
const BAR_GAP = 4;
const GROUP_GAP = 14;
const GROUP_H = LABEL_H + 2 * BAR_H + BAR_GAP + GROUP_GAP;
/** Room right of the longest bar for its figure. */
const VALUE_W = 150;

const tokensOf = (r: ProjectRow) => r.inputTokens + r.outputTokens;
const costText = (r: ProjectRow) =>
  r.costUsd === null ? 'cost unknown' : `${formatUsd(r.costUsd)}${r.runsWithoutCost > 0 ? ' + unknown' : ''}`;

/**
 * Cost and tokens per project, as horizontal bars (a label above each pair, so it reads at 390 px),
 * drawn at the container's real width so text is never scaled. Each measure has its own scale.
 * Screen readers get the chart as one image whose description lists every figure.
 */
export function UsageChart({ rows, total }: { rows: readonly ProjectRow[]; total: number }) {
  const { ref, width } = useElementSize();
  const titleId = useId();
  const descId = useId();
  const maxCost = Math.max(0, ...rows.map((r) => r.costUsd ?? 0));
  const maxTokens = Math.max(0, ...rows.map(tokensOf));
  const barMax = Math.max(40, width - VALUE_W);
  const scale = (v: number, max: number) => (max > 0 ? Math.max(v > 0 ? 2 : 0, (v / max) * barMax) : 0);
  const height = rows.length * GROUP_H;
  const description = rows
    .map((r) => `${r.projectName}: ${costText(r)}, ${formatCount(tokensOf(r))} tokens`)
    .join('; ');
  const title =
    total > rows.length
      ? `Cost and tokens of the first ${rows.length} of ${total} projects, in the table's order`
      : `Cost and tokens per project, in the table's order`;

  return (
    <Box ref={ref} data-testid="usage-chart">
      <Group gap="md" mb="xs" aria-hidden="true">
        <Legend color={COST_COLOR} label="Cost (USD)" />
        <Legend color={TOKENS_COLOR} label="Tokens (input + output)" />
      </Group>
      {rows.length === 0 ? (
        <Text c="dimmed" size="sm">
          Nothing to chart in this window.
        </Text>
      ) : (
        width > 0 && (
          <svg
            role="img"
            aria-labelledby={`${titleId} ${descId}`}
            width={width}
            height={height}
            viewBox={`0 0 ${width} ${height}`}
            style={{ display: 'block', fontFamily: 'var(--mantine-font-family)' }}
          >
            <title id={titleId}>{title}</title>
            <desc id={descId}>{description}</desc>
            {rows.map((r, i) => {
              const y = i * GROUP_H;
              const costW = r.costUsd === null ? 0 : scale(r.costUsd, maxCost);
              const tokensW = scale(tokensOf(r), maxTokens);
              const costY = y + LABEL_H;
              const tokensY = costY + BAR_H + BAR_GAP;
              return (
                <g key={r.projectId} data-testid="usage-chart-bar">
                  <text x={0} y={y + 14} fontSize={13} fontWeight={500} fill={TEXT_COLOR}>
                    {r.projectName.length > 60 ? `${r.projectName.slice(0, 59)}…` : r.projectName}
                  </text>
                  {r.costUsd === null ? (
                    <rect
                      x={0.5}
                      y={costY + 0.5}
                      width={24}
                      height={BAR_H - 1}
                      fill="none"
                      stroke={DIMMED_COLOR}
                      strokeDasharray="3 2"
                    />
                  ) : (
                    <rect x={0} y={costY} width={costW} height={BAR_H} rx={2} fill={COST_COLOR} />
                  )}
                  <text x={(r.costUsd === null ? 24 : costW) + 6} y={costY + 11} fontSize={12} fill={TEXT_COLOR}>
                    {costText(r)}
                  </text>
                  <rect x={0} y={tokensY} width={tokensW} height={BAR_H} rx={2} fill={TOKENS_COLOR} />
                  <text x={tokensW + 6} y={tokensY + 11} fontSize={12} fill={TEXT_COLOR}>
                    {formatCount(tokensOf(r))} tokens
                  </text>
                </g>
              );
            })}
          </svg>
        )
      )}
    </Box>
  );
}

function Legend({ color, label }: { color: string; label: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Box w={12} h={12} style={{ background: color, borderRadius: 2 }} />
      <Text size="xs">{label}</Text>
    </Group>
  );
}
