/**
 * The rows the usage area stores and reads, as the database holds them: runs, their facts and
 * the sessions they belong to (written by ingest-store.ts), the filters every read shares, and
 * the sums the reads answer (read by store.ts). The rollup levels over them are in
 * rollup-levels.ts.
 */
export interface RunRecord {
  id: string;
  organization_id: string;
  project_id: string;
  session_id: string;
  /** The run's own agent, as its line named it (a session's runs may use several). */
  provider: string;
  role_id: string;
  model: string;
  /** Who started the run (initiators.ts): the principal its line named, null for nobody. */
  initiator_type: string | null;
  initiator_id: string | null;
  /** The member accountable for it: the member who started it, or the owner of its API token. */
  member_id: string | null;
  /** The service account accountable for it: the one that started it, or the owner of its API token. */
  service_account_id: string | null;
  at: string;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
}

/** One fact of a run, with its run's organization, project and time (the breakdown reads facts alone). */
export interface FactRecord {
  run_id: string;
  ordinal: number;
  organization_id: string;
  project_id: string;
  at: string;
  kind: string;
  capability_id: string | null;
  quantity: number;
  unit: string;
  cost_usd: number | null;
}

/** A principal a run is attributed to, as the ingest resolved it (initiators.ts). */
export interface Principal {
  type: string;
  id: string;
  /** The member accountable: the member themself, or the owner of an API token. */
  memberId: string | null;
  /** The service account accountable: the account itself, or the owner of an API token. */
  serviceAccountId: string | null;
}

/** A stored session: the organization and project it belongs to. */
export interface StoredSession {
  organization_id: string;
  project_id: string;
}

/** What a batch of runs does to one agent session; its agent is its first run's, as its summary. */
export interface SessionActivity {
  id: string;
  projectId: string;
  provider: string;
  roleId: string;
  model: string;
  /** Who opened it: its first run's initiator, resolved. */
  openedBy: Principal | null;
  title: string | null | undefined;
  firstAt: string;
  lastAt: string;
  runs: number;
}

/** The filters the report and the breakdown share: a window and, optionally, some projects. */
export interface UsageFilter {
  from?: string | undefined;
  to?: string | undefined;
  /** Only projects in this folder or below it. */
  folderId?: string | undefined;
  /** Only this project. */
  projectId?: string | undefined;
  /** Only the runs this member is accountable for. */
  memberId?: string | undefined;
  /** Only the runs started through this API token. */
  apiTokenId?: string | undefined;
  /** Only the runs this service account is accountable for (its own and its tokens'). */
  serviceAccountId?: string | undefined;
  /** Only the runs counted for this team (the team sums alone read it). */
  teamId?: string | undefined;
  /**
   * Only the runs of members who were ever in this team: the team sums narrow the member days they
   * read to the team's members (then keep each membership's own span) instead of every member's.
   */
  everInTeam?: string | undefined;
}

/** The parameters of the usage reads: the organization and the filter, each read prepared per filter present. */
export type FilterParams = UsageFilter & { organizationId: string };

/** Sums of runs; costs in whole micro-dollars (cost-micros.ts), counted with the runs that had one. */
export interface RunSumRecord {
  run_count: number | string;
  runs_with_cost: number | string;
  input_tokens: number | string | null;
  output_tokens: number | string | null;
  cost_micros: number | string | null;
}

export interface UsageRowRecord extends RunSumRecord {
  project_id: string;
  project_name: string;
  folder_id: string | null;
}

/** A window's run sums of one member, team or API token (key null: the runs without one), labelled. */
export interface UsageGroupRecord extends RunSumRecord {
  key: string | null;
  label: string;
}

/** Sums of facts; costs in whole micro-dollars (cost-micros.ts), counted with the facts that had one. */
export interface FactSumRecord {
  fact_count: number | string;
  facts_with_cost: number | string;
  quantity: number | string | null;
  cost_micros: number | string | null;
}

export interface FactKindSumRecord extends FactSumRecord {
  kind: string;
}

export interface CapabilitySumRecord extends FactSumRecord {
  capability_id: string;
  label: string | null;
}

/** Items in slices of `size`: one statement per slice keeps within the engines' limits on terms and parameters. */
export function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
