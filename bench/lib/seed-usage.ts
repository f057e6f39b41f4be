/**
 * The data of the `usage` case: one organization (its owner, a folder tree, projects) seeded
 * straight into the tables, and a JSON Lines file of agent runs for the real ingest path to
 * load. Deterministic (fixed PRNG seed, fixed calendar span), so two runs measure the same shape.
 *
 * Runs belong to sessions (each session to one project, each project an equal share of the
 * sessions); a session lives 1–60 days somewhere in the span and its runs fall inside that
 * life, so a month's report covers a subset of the projects. The file is in time order, as an
 * append-only log written by the agent runtime would be. About 20 % of the runs have no cost.
 *
 * Besides the file, the generator keeps the model's totals of the three report variants
 * (everything, one month, one root folder's subtree) so the answers can be checked against
 * something that is not SQL.
 */
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/connect.js';
import { prng } from './prng.js';
import { type FolderRow, WORDS } from './seed-rows.js';

export interface UsageSize {
  runs: number;
  /** Projects in all, archived ones included (their runs still count in the report). */
  projects: number;
  sessions: number;
  rootFolders: number;
  childrenPerRoot: number;
  /** Members who start runs, and the teams they are spread over (an equal share each). */
  members: number;
  teams: number;
}

/** The targets' scale: 1,000,000 runs over 2,000 projects. */
export const USAGE_FULL_SIZE: UsageSize = {
  runs: 1_000_000,
  projects: 2_000,
  sessions: 20_000,
  rootFolders: 100,
  childrenPerRoot: 4,
  members: 2_000,
  teams: 200,
};

/** The same shape at a fraction of the size, for a quick run (BENCH_SCALE). */
export function scaledUsageSize(scale: number): UsageSize {
  const s = (n: number, min: number) => Math.max(min, Math.round(n * scale));
  return {
    ...USAGE_FULL_SIZE,
    runs: s(USAGE_FULL_SIZE.runs, 1_000),
    projects: s(USAGE_FULL_SIZE.projects, 100),
    sessions: s(USAGE_FULL_SIZE.sessions, 500),
    rootFolders: s(USAGE_FULL_SIZE.rootFolders, 5),
    members: s(USAGE_FULL_SIZE.members, 20),
    teams: s(USAGE_FULL_SIZE.teams, 2),
  };
}

/** The runs span twelve calendar months; the windowed variant asks for one of them. */
export const SPAN = { from: Date.UTC(2025, 0, 1), to: Date.UTC(2026, 0, 1) } as const;
export const MONTH_WINDOW = { from: '2025-07-01T00:00:00.000Z', to: '2025-08-01T00:00:00.000Z' } as const;

/** Report totals as the model computes them; costUsd in USD (summed exactly as micro-dollars). */
export interface ModelTotals {
  rows: number;
  runCount: number;
  runsWithCost: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

export interface SeededUsageOrg {
  org: { id: string; slug: string; name: string };
  owner: { id: string; imOpenId: string };
  /** Per project (index = project number): id, root folder number (-1 at the org root), archived. */
  projects: { id: string; root: number; archived: boolean }[];
  /** The folder the folder-filtered variant asks for, with the projects in its subtree. */
  filterFolder: { id: string; name: string; subtreeFolders: number; subtreeProjects: number };
  folders: number;
  /** The members' imOpenIds (index = member number) and the teams' ids (member m is in team m % teams). */
  members: string[];
  teams: string[];
  rows: Record<string, number>;
  seedMs: number;
}

export interface GeneratedRuns {
  file: string;
  bytes: number;
  lines: number;
  sessions: number;
  generateMs: number;
  expected: { all: ModelTotals; month: ModelTotals; folder: ModelTotals };
}

const CHUNK = 500;
const DAY = 24 * 3600 * 1000;
const PROVIDERS: readonly [string, readonly string[]][] = [
  ['anthropic', ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5']],
  ['openai', ['gpt-5', 'gpt-5-mini']],
  ['google', ['gemini-2.5-pro']],
];
const ROLES = ['coder', 'reviewer', 'planner', 'writer', 'tester'];

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/**
 * Inserts the organization, its owner, `rootFolders` × (1 + `childrenPerRoot`) active folders
 * plus one archived child under the first root, and the projects: about 2 % at the org root,
 * 1 % archived (two of them in the archived folder), the rest spread evenly over the folders.
 * Root folder 0 is the one the folder variant filters on: its subtree holds ~1/rootFolders of
 * the projects, archived folder included (the report counts it).
 */
export async function seedUsageOrg(db: Db, size: UsageSize, tag: string): Promise<SeededUsageOrg> {
  const started = performance.now();
  const random = prng(0x05a6e);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const now = new Date().toISOString();
  const created = new Date(SPAN.from - 30 * DAY).toISOString();

  const org = {
    id: randomUUID(),
    slug: `usage-${tag}`,
    name: `Usage Org ${tag}`,
    status: 'ACTIVE',
    created_at: created,
  };
  const owner = {
    id: randomUUID(),
    im_open_id: `bench-${tag}-owner`,
    display_name: 'Usage Owner',
    avatar_url: null,
    created_at: created,
  };
  const membership = {
    id: randomUUID(),
    organization_id: org.id,
    user_id: owner.id,
    role: 'OWNER',
    created_at: created,
    revoked_at: null,
  };
  const settings = { organization_id: org.id, members_can_create_projects: false, updated_at: now };

  const folders: FolderRow[] = [];
  /** Active folders with the root they sit under. */
  const placed: { id: string; root: number }[] = [];
  for (let r = 0; r < size.rootFolders; r++) {
    const root: FolderRow = {
      id: randomUUID(),
      organization_id: org.id,
      parent_id: null,
      name: `${pick(WORDS)} ${pad(r, 3)}`,
      sort_key: pad((r + 1) * 1000, 10),
      created_at: created,
      archived_at: null,
    };
    folders.push(root);
    placed.push({ id: root.id, root: r });
    for (let c = 0; c < size.childrenPerRoot; c++) {
      const child: FolderRow = {
        id: randomUUID(),
        organization_id: org.id,
        parent_id: root.id,
        name: `${root.name}.${c}`,
        sort_key: pad((c + 1) * 1000, 10),
        created_at: created,
        archived_at: null,
      };
      folders.push(child);
      placed.push({ id: child.id, root: r });
    }
  }
  const archivedFolder: FolderRow = {
    id: randomUUID(),
    organization_id: org.id,
    parent_id: folders[0]!.id,
    name: 'Old work',
    sort_key: pad(99_000, 10),
    created_at: created,
    archived_at: now,
  };
  folders.push(archivedFolder);

  const archivedCount = Math.max(2, Math.round(size.projects / 100));
  const projectRows = Array.from({ length: size.projects }, (_, i) => {
    const id = randomUUID();
    const archived = i >= size.projects - archivedCount;
    let folderId: string | null;
    let root: number;
    if (i >= size.projects - 2) {
      folderId = archivedFolder.id;
      root = 0;
    } else if (random() < 0.02) {
      folderId = null;
      root = -1;
    } else {
      const f = placed[i % placed.length]!;
      folderId = f.id;
      root = f.root;
    }
    return {
      row: {
        id,
        organization_id: org.id,
        folder_id: folderId,
        name: `${pick(WORDS)} ${pick(WORDS).toLowerCase()} ${pad(i, 4)}`,
        workspace_dir: `/var/lib/hub/workspaces/${org.id}/${id}`,
        created_by: owner.id,
        created_at: created,
        archived_at: archived ? now : null,
      },
      root,
      archived,
    };
  });

  // Members, each in one team from before the runs' span.
  const users = Array.from({ length: size.members }, (_, m) => ({
    id: randomUUID(),
    im_open_id: `bench-${tag}-m${pad(m, 5)}`,
    display_name: `Member ${m}`,
    avatar_url: null,
    created_at: created,
  }));
  const teams = Array.from({ length: size.teams }, (_, t) => ({
    id: randomUUID(),
    organization_id: org.id,
    slug: `team-${t}`,
    name: `Team ${t}`,
    description: null,
    created_at: created,
    archived_at: null,
  }));
  const memberRows = users.map((u) => ({ ...membership, id: randomUUID(), user_id: u.id, role: 'MEMBER' }));
  const teamMembers = users.map((u, m) => ({
    id: randomUUID(),
    team_id: teams[m % size.teams]!.id,
    user_id: u.id,
    created_at: created,
    revoked_at: null,
  }));
  const tables: [string, readonly object[]][] = [
    ['users', [owner, ...users]],
    ['organizations', [org]],
    ['organization_settings', [settings]],
    ['memberships', [membership, ...memberRows]],
    ['teams', teams],
    ['team_members', teamMembers],
    ['folders', folders],
    ['projects', projectRows.map((p) => p.row)],
  ];
  await db.transaction(async (trx) => {
    for (const [table, rows] of tables) await trx.batchInsert(table, rows as readonly Record<string, unknown>[], CHUNK);
  });

  return {
    org: { id: org.id, slug: org.slug, name: org.name },
    owner: { id: owner.id, imOpenId: owner.im_open_id },
    projects: projectRows.map((p) => ({ id: p.row.id, root: p.root, archived: p.archived })),
    filterFolder: {
      id: folders[0]!.id,
      name: folders[0]!.name,
      subtreeFolders: 1 + size.childrenPerRoot + 1,
      subtreeProjects: projectRows.filter((p) => p.root === 0).length,
    },
    folders: folders.length,
    members: users.map((u) => u.im_open_id),
    teams: teams.map((t) => t.id),
    rows: Object.fromEntries(tables.map(([table, rows]) => [table, rows.length])),
    seedMs: performance.now() - started,
  };
}

class Totals {
  private readonly projects = new Set<number>();
  runCount = 0;
  runsWithCost = 0;
  inputTokens = 0;
  outputTokens = 0;
  private micros = 0;

  add(project: number, input: number, output: number, costMicros: number | null): void {
    this.projects.add(project);
    this.runCount += 1;
    this.inputTokens += input;
    this.outputTokens += output;
    if (costMicros !== null) {
      this.runsWithCost += 1;
      this.micros += costMicros;
    }
  }

  done(): ModelTotals {
    const { runCount, runsWithCost, inputTokens, outputTokens } = this;
    return {
      rows: this.projects.size,
      runCount,
      runsWithCost,
      inputTokens,
      outputTokens,
      costUsd: runsWithCost === 0 ? null : this.micros / 1e6,
    };
  }
}

/**
 * Writes `size.runs` runs as JSON Lines to `file`, in time order, and returns the model's
 * totals of the three report variants. Streams out in blocks; only the per-run time and session
 * (12 bytes a run) are held in memory.
 */
export function writeUsageRuns(file: string, seed: SeededUsageOrg, size: UsageSize, tag: string): GeneratedRuns {
  const started = performance.now();
  const random = prng(0x7a11e7);
  const int = (n: number) => Math.floor(random() * n);
  const spanMs = SPAN.to - SPAN.from;

  // Sessions: project s % projects (an equal share each), a life of 1–60 days inside the span.
  const sessionStart = new Float64Array(size.sessions);
  const sessionLife = new Float64Array(size.sessions);
  const sessionKind = new Uint8Array(size.sessions * 3);
  const sessionIds: string[] = [];
  for (let s = 0; s < size.sessions; s++) {
    const life = (1 + random() * 59) * DAY;
    sessionLife[s] = life;
    sessionStart[s] = SPAN.from + random() * (spanMs - life);
    const provider = int(PROVIDERS.length);
    sessionKind[s * 3] = provider;
    sessionKind[s * 3 + 1] = int(PROVIDERS[provider]![1].length);
    sessionKind[s * 3 + 2] = int(ROLES.length);
    sessionIds.push(`sess-${tag}-${pad(s, 6)}`);
  }

  // Runs: a random session each, at a random moment of its life; then ordered by time.
  const at = new Float64Array(size.runs);
  const session = new Uint32Array(size.runs);
  for (let i = 0; i < size.runs; i++) {
    const s = int(size.sessions);
    session[i] = s;
    at[i] = Math.floor(sessionStart[s]! + random() * sessionLife[s]!);
  }
  const order = new Uint32Array(size.runs);
  for (let i = 0; i < size.runs; i++) order[i] = i;
  order.sort((a, b) => at[a]! - at[b]!);

  const monthFrom = Date.parse(MONTH_WINDOW.from);
  const monthTo = Date.parse(MONTH_WINDOW.to);
  const all = new Totals();
  const month = new Totals();
  const folder = new Totals();
  const used = new Set<number>();

  const fd = fs.openSync(file, 'w');
  let bytes = 0;
  try {
    let block: string[] = [];
    const flush = () => {
      if (block.length === 0) return;
      const text = `${block.join('\n')}\n`;
      bytes += fs.writeSync(fd, text);
      block = [];
    };
    for (let k = 0; k < size.runs; k++) {
      const i = order[k]!;
      const s = session[i]!;
      const projectNo = s % size.projects;
      const project = seed.projects[projectNo]!;
      const [providerName, models] = PROVIDERS[sessionKind[s * 3]!]!;
      const input = 100 + int(30_000);
      const output = 10 + int(5_000);
      // Micro-dollars, so the model sums exactly; about 20 % of the runs have no known cost.
      const costMicros = random() < 0.2 ? null : input * 3 + output * 15;
      const t = at[i]!;
      const line: Record<string, unknown> = {
        projectId: project.id,
        sessionId: sessionIds[s]!,
        provider: providerName,
        roleId: ROLES[sessionKind[s * 3 + 2]!]!,
        model: models[sessionKind[s * 3 + 1]!]!,
        at: new Date(t).toISOString(),
        inputTokens: input,
        outputTokens: output,
        costUsd: costMicros === null ? null : costMicros / 1e6,
      };
      if (random() < 0.1) line.title = `Session ${s} — step ${k % 97}`;
      // Nine runs in ten name the member who started them; the rest nobody (a schedule). Without
      // BENCH_USAGE_INITIATORS (=0) no run names one, to compare the ingest with and without.
      if (random() < 0.9 && process.env.BENCH_USAGE_INITIATORS !== '0')
        line.initiatedBy = { type: 'member', imOpenId: seed.members[int(seed.members.length)]! };
      block.push(JSON.stringify(line));
      if (block.length === 10_000) flush();

      used.add(s);
      all.add(projectNo, input, output, costMicros);
      if (t >= monthFrom && t < monthTo) month.add(projectNo, input, output, costMicros);
      if (project.root === 0) folder.add(projectNo, input, output, costMicros);
    }
    flush();
  } finally {
    fs.closeSync(fd);
  }
  return {
    file,
    bytes,
    lines: size.runs,
    sessions: used.size,
    generateMs: performance.now() - started,
    expected: { all: all.done(), month: month.done(), folder: folder.done() },
  };
}
