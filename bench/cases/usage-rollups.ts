import type { Knex } from 'knex';
import type { Services } from '../../src/app/services.js';
import { teamSpendIn } from '../../src/budgets/spend.js';
import type { TargetDefinition } from '../lib/targets.js';

/**
 * Issue 40's usage reads, answered from the daily rollups, timed in process (service calls, no
 * HTTP): the whole-organization report and breakdown, and the report of the last thirty days of
 * runs (edges inside a day, so both the rollups and the raw edge rows are read), and a 90-day daily
 * series grouped by model; then the server's RSS growth while the whole-organization report is
 * downloaded as CSV over HTTP. Their targets, with the figures measured before the
 * rollups, are ROLLUP_TARGETS.
 */

const ENGINES = ['sqlite', 'postgresql'] as const;
const ROUNDS = 11;
const MONTH_MS = 30 * 86_400_000;

/** Per engine: the reads' targets, and ingest with the rollups kept within 15 % of the rate before. */
export const ROLLUP_TARGETS: readonly TargetDefinition[] = ENGINES.flatMap((engine) => {
  const on = engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const measuredBy = engine === 'sqlite' ? 'usage' : 'usage (DATABASE_URL)';
  const read = (id: string, label: string, limit: number): TargetDefinition => ({
    id: `rollups.${id}.${engine}`,
    label: `${label} on ${on}`,
    unit: 'ms',
    kind: 'max',
    limit,
    measuredBy,
  });
  return [
    read('report', 'whole-organization usage report, median', 50),
    read('breakdown', 'whole-organization breakdown, median [1,220 ms before rollups on SQLite]', 50),
    read('month', 'one month of usage, median [420 ms before rollups]', 20),
    read('series', '90-day daily series grouped by model, median [no series before]', 50),
    read('member-year', 'whole-organization report by member, median', 50),
    read('team-month', "one team's spend over a month, median", 20),
    {
      id: `rollups.csv-rss.${engine}`,
      label: `server RSS growth over five CSV downloads of the whole-organization report on ${on}`,
      unit: 'MB',
      kind: 'max',
      limit: 20,
      measuredBy,
    },
    {
      id: `rollups.ingest.${engine}`,
      label: `ingest with rollups kept on ${on} [${engine === 'sqlite' ? '~60k' : '~57k'} runs/s before]`,
      unit: 'runs/s',
      kind: 'min',
      limit: engine === 'sqlite' ? 51_000 : 48_450,
      measuredBy,
    },
  ];
});

export interface RollupReadFigures {
  reportMs: number;
  breakdownMs: number;
  monthMs: number;
  seriesMs: number;
  /** The whole span's report by member, and one team's spend over a month. */
  memberYearMs: number;
  teamMonthMs: number;
  month: { from: string; to: string };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function timed(call: () => Promise<unknown>): Promise<number> {
  await call();
  const ms: number[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    const started = performance.now();
    await call();
    ms.push(performance.now() - started);
  }
  return median(ms);
}

export async function measureRollupReads(db: Knex, services: Services, organizationId: string) {
  const [span] = (await db('runs').where('organization_id', organizationId).max({ last: 'at' })) as {
    last: string | null;
  }[];
  const to = new Date(span?.last ?? Date.now()).toISOString();
  const from = new Date(Date.parse(to) - MONTH_MS).toISOString();
  const figures: RollupReadFigures = {
    reportMs: await timed(() => services.usage.report(organizationId, {})),
    breakdownMs: await timed(() => services.usage.breakdown(organizationId, {})),
    monthMs: await timed(() => services.usage.report(organizationId, { from, to })),
    seriesMs: await timed(() =>
      services.usageSeries.get(organizationId, {
        from: new Date(Date.parse(to) - 3 * MONTH_MS).toISOString(),
        to,
        bucket: 'day',
        groupBy: 'model',
      }),
    ),
    memberYearMs: await timed(() => services.usage.report(organizationId, { groupBy: 'member' })),
    teamMonthMs: await timed(async () => {
      const [team] = (await db('teams').where('organization_id', organizationId).orderBy('id').limit(1)) as {
        id: string;
      }[];
      return team ? teamSpendIn(services.teamSums, db, organizationId, { from, to, teamId: team.id }) : null;
    }),
    month: { from, to },
  };
  return figures;
}

/**
 * How far this process's RSS (the server runs in it; the client is a process of its own) rises
 * above where it stood while `download` runs five times, sampled every 5 ms; in MB.
 */
export async function measureRssGrowth(download: () => Promise<void>): Promise<number> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    for (let i = 0; i < 5; i += 1) await download();
  } finally {
    clearInterval(sampler);
  }
  return (Math.max(peak, process.memoryUsage.rss()) - before) / 1_000_000;
}
