import type { AgentKeys, RollupLevel } from './rollup-levels.js';
import { SESSION_KEYS } from './rollup-levels.js';
import { costMicros } from './cost-micros.js';
import type { FactRecord, RunRecord } from './records.js';
import { dayOf, monthOf } from './window-split.js';

/** Sums of one session's runs (or facts of one kind and capability) on one day. */
interface Tally {
  session_id: string;
  project_id: string;
  day: string;
  kind?: string;
  capability_id?: string;
  count: number;
  with_cost: number;
  a: number;
  b: number;
  cost_micros: number;
}

export type Measure = 'count' | 'with_cost' | 'a' | 'b' | 'cost_micros';
/** The part of a tally each of a family's sums (RUN_SUMS, FACT_SUMS) adds, in their order. */
export const RUN_MEASURES: readonly Measure[] = ['count', 'with_cost', 'a', 'b', 'cost_micros'];
export const FACT_MEASURES: readonly Measure[] = ['count', 'with_cost', 'a', 'cost_micros'];

type AgentKey = (typeof SESSION_KEYS)[number];
/** The keys a tally names itself (its project and agent are its session's). */
type TallyKey = 'kind' | 'capability_id';
const TALLY_OWN_KEYS: readonly string[] = ['kind', 'capability_id'];
const isAgentKey = (key: string): key is AgentKey => (SESSION_KEYS as readonly string[]).includes(key);

/**
 * What an ingest adds to the rollups: its runs and facts summed per session and day as they are
 * read; once they are stored, RollupStore.add sums them per row of every level and adds those to the
 * stored rows in the ingest's transaction (no re-aggregation of the days' raw rows). The
 * session's stored provider, role and model key the rollup rows, as in RollupStore.rebuild.
 */
export class RollupTally {
  private readonly runs = new Map<string, Tally>();
  private readonly facts = new Map<string, Tally>();

  add(run: RunRecord, facts: FactRecord[]): void {
    const day = dayOf(run.at);
    const base = { session_id: run.session_id, project_id: run.project_id, day };
    count(this.runs, `${run.session_id}\n${day}`, base, run.cost_usd, run.input_tokens, run.output_tokens);
    for (const fact of facts) {
      const capability = fact.capability_id ?? '';
      const key = `${run.session_id}\n${day}\n${fact.kind}\n${capability}`;
      count(this.facts, key, { ...base, kind: fact.kind, capability_id: capability }, fact.cost_usd, fact.quantity, 0);
    }
  }

  /** The run tallies (`runs`) or the fact tallies (`facts`), summed into one level's rows (see levelRows). */
  rows(
    family: 'runs' | 'facts',
    level: RollupLevel,
    agents: ReadonlyMap<string, AgentKeys>,
  ): Array<Array<string | number>> {
    const [measures, tallies] = family === 'runs' ? [RUN_MEASURES, this.runs] : [FACT_MEASURES, this.facts];
    return levelRows(level, measures, tallies.values(), agents);
  }
}

/**
 * Tallies summed into one level's rows, each an array of its day or month, then the level's keys
 * its session names (project, agent), then the keys its tally names (kind, capability), then the
 * family's sums: upsertSql's column order.
 */
function levelRows(
  level: RollupLevel,
  measures: readonly Measure[],
  tallies: Iterable<Tally>,
  agents: ReadonlyMap<string, AgentKeys>,
): Array<Array<string | number>> {
  const { bySession, byTally } = keysOf(level);
  // A session's part of the key is built once (one string per session, so lookups reuse its hash).
  const sessionParts = new Map<string, { id: string; values: string[] }>();
  const rows = new Map<string, Map<string, Array<string | number>>>();
  for (const tally of tallies) {
    let part = sessionParts.get(tally.session_id);
    if (!part) {
      const agent = agents.get(tally.session_id);
      if (!agent) throw new Error(`session ${tally.session_id} of an ingest is not stored`);
      const values = bySession.map((k) => (isAgentKey(k) ? agent[k] : tally.project_id));
      part = { id: values.join('\n'), values };
      sessionParts.set(tally.session_id, part);
    }
    const period = level.grain === 'month' ? monthOf(tally.day) : tally.day;
    const own = byTally.map((k) => String(tally[k as TallyKey]));
    const id = own.length === 0 ? part.id : `${part.id}\n${own.join('\n')}`;
    let inPeriod = rows.get(period);
    if (!inPeriod) {
      inPeriod = new Map();
      rows.set(period, inPeriod);
    }
    let row = inPeriod.get(id);
    if (!row) {
      row = [period, ...part.values, ...own, ...measures.map(() => 0)];
      inPeriod.set(id, row);
    }
    const first = row.length - measures.length;
    for (let m = 0; m < measures.length; m += 1) row[first + m] = (row[first + m] as number) + tally[measures[m]!];
  }
  return [...rows.values()].flatMap((inPeriod) => [...inPeriod.values()]);
}

/** A level's keys its session names and those its tally names, in the level's order. */
export const keysOf = (level: RollupLevel) => ({
  bySession: level.keys.filter((k) => !TALLY_OWN_KEYS.includes(k)),
  byTally: level.keys.filter((k) => TALLY_OWN_KEYS.includes(k)),
});

function count(
  into: Map<string, Tally>,
  key: string,
  base: Omit<Tally, 'count' | 'with_cost' | 'a' | 'b' | 'cost_micros'>,
  costUsd: number | null,
  a: number,
  b: number,
): void {
  let tally = into.get(key);
  if (!tally) {
    tally = { ...base, count: 0, with_cost: 0, a: 0, b: 0, cost_micros: 0 };
    into.set(key, tally);
  }
  tally.count += 1;
  tally.a += a;
  tally.b += b;
  if (costUsd !== null) {
    tally.with_cost += 1;
    tally.cost_micros += costMicros(costUsd);
  }
}
