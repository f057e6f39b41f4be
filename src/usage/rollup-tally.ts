import { costMicros } from './cost-micros.js';
import type { FactRecord, RunRecord } from './records.js';
import { PERSON_KEYS, type RollupLevel } from './rollup-levels.js';
import { dayOf, monthOf } from './window-split.js';

/** What a tally is keyed by: every key a level may have, as the run (or fact) names it. */
interface TallyKeys {
  project_id: string;
  provider?: string;
  role_id?: string;
  model?: string;
  member_id?: string;
  api_token_id?: string;
  service_account_id?: string;
  kind?: string;
  capability_id?: string;
}

/** Sums of the runs (or facts of one kind and capability) of one project and agent on one day. */
interface Tally extends TallyKeys {
  day: string;
  count: number;
  with_cost: number;
  a: number;
  b: number;
  cost_micros: number;
}

type Measure = 'count' | 'with_cost' | 'a' | 'b' | 'cost_micros';
/** The part of a tally each of a family's sums (RUN_SUMS, FACT_SUMS) adds, in their order. */
const RUN_MEASURES: readonly Measure[] = ['count', 'with_cost', 'a', 'b', 'cost_micros'];
const FACT_MEASURES: readonly Measure[] = ['count', 'with_cost', 'a', 'cost_micros'];

/**
 * What an ingest adds to the rollups: its runs and facts summed per project, agent and day as they
 * are read; once they are stored, RollupStore.add sums them per row of every level and adds those
 * to the stored rows in the ingest's transaction (no re-aggregation of the days' raw rows). Each
 * run's own provider, role and model key its rows (a fact's are its run's), and its accountable
 * member, API token and service account, as in RollupStore.rebuild (RAW_RUN_KEY).
 *
 * Runs are tallied twice: per project, agent and day (what the agent levels sum) and per project,
 * person and day (what the person levels sum). One tally keyed by both would hold nearly a row
 * per run once runs name their people, and every level's rows would be summed from all of them.
 */
export class RollupTally {
  private readonly agentRuns = new Map<string, Tally>();
  private readonly personRuns = new Map<string, Tally>();
  private readonly facts = new Map<string, Tally>();

  /** A run, once it is attributed: its person tally is keyed by who it is counted for. */
  addRun(run: RunRecord): void {
    const day = dayOf(run.at);
    const { project_id, provider, role_id, model } = run;
    const agent = { project_id, provider, role_id, model, day };
    const agentKey = `${project_id}\n${provider}\n${role_id}\n${model}\n${day}`;
    count(this.agentRuns, agentKey, agent, run.cost_usd, run.input_tokens, run.output_tokens);
    const member_id = run.member_id ?? '';
    const api_token_id = run.initiator_type === 'apiToken' ? run.initiator_id! : '';
    const service_account_id = run.service_account_id ?? '';
    const person = { project_id, member_id, api_token_id, service_account_id, day };
    const personKey = `${project_id}\n${day}\n${member_id}\n${api_token_id}\n${service_account_id}`;
    count(this.personRuns, personKey, person, run.cost_usd, run.input_tokens, run.output_tokens);
  }

  /** A run's facts, keyed by its project, agent and day (no fact level is per person). */
  addFacts(run: RunRecord, facts: FactRecord[]): void {
    if (facts.length === 0) return;
    const day = dayOf(run.at);
    const { project_id, provider, role_id, model } = run;
    const base = { project_id, provider, role_id, model, day };
    const key = `${project_id}\n${provider}\n${role_id}\n${model}\n${day}`;
    for (const fact of facts) {
      const capability = fact.capability_id ?? '';
      count(
        this.facts,
        `${key}\n${fact.kind}\n${capability}`,
        { ...base, kind: fact.kind, capability_id: capability },
        fact.cost_usd,
        fact.quantity,
        0,
      );
    }
  }

  /**
   * The run tallies (`runs`) or the fact tallies (`facts`) summed into one level's rows, each an
   * array of its day or month, then its keys in the level's order, then the family's sums: the
   * column order of RollupStore's upsert.
   */
  rows(family: 'runs' | 'facts', level: RollupLevel): Array<Array<string | number>> {
    const personal = level.keys.some((k) => (PERSON_KEYS as readonly string[]).includes(k));
    const runs = personal ? this.personRuns : this.agentRuns;
    const [measures, tallies] = family === 'runs' ? [RUN_MEASURES, runs] : [FACT_MEASURES, this.facts];
    const keys = level.keys as ReadonlyArray<keyof TallyKeys>;
    const rows = new Map<string, Map<string, Array<string | number>>>();
    for (const tally of tallies.values()) {
      const period = level.grain === 'month' ? monthOf(tally.day) : tally.day;
      const values = keys.map((k) => tally[k] ?? '');
      const id = values.join('\n');
      let inPeriod = rows.get(period);
      if (!inPeriod) {
        inPeriod = new Map();
        rows.set(period, inPeriod);
      }
      let row = inPeriod.get(id);
      if (!row) {
        row = [period, ...values, ...measures.map(() => 0)];
        inPeriod.set(id, row);
      }
      const first = row.length - measures.length;
      for (let m = 0; m < measures.length; m += 1) row[first + m] = (row[first + m] as number) + tally[measures[m]!];
    }
    return [...rows.values()].flatMap((inPeriod) => [...inPeriod.values()]);
  }
}

function count(
  into: Map<string, Tally>,
  key: string,
  base: Omit<Tally, Measure>,
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
