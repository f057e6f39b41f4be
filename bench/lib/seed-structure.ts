/**
 * Seeds one organization at scale straight into the tables (knex batch inserts in one
 * transaction), much faster than going through the services row by row. Rows follow the
 * schema of src/db/migrations exactly; the data is pseudo-random but deterministic (fixed PRNG
 * seed), so two runs measure the same shape.
 *
 * Besides the counted, active rows it adds a few inactive ones the queries must leave out:
 * archived projects, folders, teams and bindings, revoked team memberships (1 % or so each).
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/connect.js';
import { prng } from './prng.js';
import { type FolderRow, WORDS } from './seed-rows.js';

export interface StructureSize {
  /** Active projects; about 5 % sit at the root, the rest spread over the folders. */
  projects: number;
  rootFolders: number;
  childrenPerRoot: number;
  /** Active members, the owner included. */
  members: number;
  admins: number;
  /** Active teams. */
  teams: number;
  /** Grants in all, on active and archived projects. */
  grants: number;
  /** Share of the grants held by teams rather than users. */
  teamGrantShare: number;
  /** Active chat bindings. */
  bindings: number;
  /** Active teams the member whose my-projects is timed belongs to. */
  focusTeams: number;
}

/** The targets' scale. */
export const FULL_SIZE: StructureSize = {
  projects: 20_000,
  rootFolders: 200,
  childrenPerRoot: 9,
  members: 5_000,
  admins: 5,
  teams: 500,
  grants: 50_000,
  teamGrantShare: 0.4,
  bindings: 300,
  focusTeams: 20,
};

/** The load case's organization: /members answers 100 members (~15 KB), /explorer 12 projects. */
export const LOAD_SIZE: StructureSize = {
  projects: 12,
  rootFolders: 2,
  childrenPerRoot: 2,
  members: 100,
  admins: 3,
  teams: 6,
  grants: 40,
  teamGrantShare: 0.5,
  bindings: 3,
  focusTeams: 3,
};

/** The same shape at a fraction of the size, for a quick run (BENCH_SCALE). */
export function scaledSize(scale: number): StructureSize {
  const s = (n: number, min: number) => Math.max(min, Math.round(n * scale));
  const teams = s(FULL_SIZE.teams, 25);
  return {
    ...FULL_SIZE,
    projects: s(FULL_SIZE.projects, 100),
    rootFolders: s(FULL_SIZE.rootFolders, 5),
    members: s(FULL_SIZE.members, 50),
    teams,
    grants: s(FULL_SIZE.grants, 300),
    bindings: s(FULL_SIZE.bindings, 5),
    focusTeams: Math.min(FULL_SIZE.focusTeams, teams - 3),
  };
}

export interface SeededStructure {
  org: { id: string; slug: string; name: string };
  owner: { id: string; imOpenId: string };
  /** The member whose my-projects is timed: in `focusTeams` active teams, plus inactive ties. */
  member: { id: string; imOpenId: string; activeTeams: number };
  /** A project the member reaches only through a team: in a folder, with a live binding. */
  targetProject: { id: string; memberRole: Role };
  /** What the seed inserted, as the endpoints should report it. */
  expected: {
    activeFolders: number;
    /** Active folders under an active parent: what the folders' childFolderCounts sum to. */
    activeChildFolders: number;
    activeProjects: number;
    activeProjectsInFolders: number;
    activeBindingsOnActiveProjects: number;
    activeMembers: number;
    /** Active projects the member holds any grant on, computed from the seed model (not SQL). */
    memberProjects: number;
  };
  /** Rows inserted per table. */
  rows: Record<string, number>;
  seedMs: number;
}

type Role = 'READ' | 'EDIT' | 'MANAGE';
const ROLES: readonly Role[] = ['READ', 'EDIT', 'MANAGE'];
const RANK: Record<Role, number> = { READ: 1, EDIT: 2, MANAGE: 3 };

/** Rows per INSERT: 500 × at most 8 columns stays far below SQLite's and PostgreSQL's bind limits. */
const CHUNK = 500;

const FIRST = [
  'Ada',
  'bruno',
  'Chen',
  'Dana',
  'émile',
  'Farah',
  'Goran',
  'hana',
  'Ines',
  'Jonas',
  'Kai',
  'Lena',
  'Mateo',
  'Nora',
  'Omar',
  'Priya',
];
const LAST = [
  'Okafor',
  'Schmidt',
  'li',
  'Novak',
  'García',
  'Tanaka',
  'Müller',
  'Rossi',
  'Kowalski',
  'Haddad',
  'Ivanova',
  'Park',
];

/** Typed as plain strings, so ids mix with ids read back from rows. */
const uuid = (): string => randomUUID();

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/**
 * Inserts the organization and everything in it. `tag` makes the org slug and the users'
 * imOpenIds unique, so a seed never collides with data already in the database.
 */
export async function seedStructure(db: Db, size: StructureSize, tag: string): Promise<SeededStructure> {
  const started = performance.now();
  const random = prng(0x5eed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const int = (n: number) => Math.floor(random() * n);
  const yearAgo = Date.now() - 365 * 24 * 3600 * 1000;
  /** Timestamps spread over the past year, in the schema's fixed-width ISO form. */
  const stamp = () => new Date(yearAgo + int(364 * 24 * 3600 * 1000)).toISOString();
  const now = new Date().toISOString();

  // Organization
  const org = { id: uuid(), slug: `scale-${tag}`, name: `Scale Org ${tag}`, status: 'ACTIVE', created_at: stamp() };
  const settings = { organization_id: org.id, members_can_create_projects: false, updated_at: now };

  // Users and memberships: index 0 the owner, 1..admins the admins, the focus member last.
  const users = Array.from({ length: size.members }, (_, i) => ({
    id: uuid(),
    im_open_id: `bench-${tag}-u${pad(i, 5)}`,
    display_name: `${pick(FIRST)} ${pick(LAST)} ${pad(i, 5)}`,
    avatar_url: i % 3 === 0 ? `https://avatars.example/${pad(i, 5)}.png` : null,
    created_at: stamp(),
  }));
  const owner = users[0]!;
  const focus = users[users.length - 1]!;
  const memberships = users.map((u, i) => ({
    id: uuid(),
    organization_id: org.id,
    user_id: u.id,
    role: i === 0 ? 'OWNER' : i <= size.admins ? 'ADMIN' : 'MEMBER',
    created_at: u.created_at,
    revoked_at: null,
  }));

  // Teams: the active ones, then a few archived (their grants confer nothing).
  const archivedTeamCount = Math.max(1, Math.round(size.teams / 100));
  const teams = Array.from({ length: size.teams + archivedTeamCount }, (_, i) => ({
    id: uuid(),
    organization_id: org.id,
    slug: `team-${pad(i, 4)}`,
    name: `${pick(WORDS)} team ${pad(i, 4)}`,
    description: i % 4 === 0 ? `Team ${i} of the scale benchmark` : null,
    created_at: stamp(),
    archived_at: i >= size.teams ? stamp() : null,
  }));
  const activeTeams = teams.slice(0, size.teams);
  const archivedTeams = teams.slice(size.teams);

  // Team memberships: everyone but owner and focus member in 1–4 teams; the focus member in
  // `focusTeams` active teams, plus one archived team and two revoked memberships.
  const teamMembers: { id: string; team_id: string; user_id: string; created_at: string; revoked_at: string | null }[] =
    [];
  const tie = (teamId: string, userId: string, revoked = false) =>
    teamMembers.push({
      id: uuid(),
      team_id: teamId,
      user_id: userId,
      created_at: stamp(),
      revoked_at: revoked ? now : null,
    });
  for (const user of users.slice(1, -1)) {
    const count = 1 + int(4);
    const chosen = new Set<number>();
    while (chosen.size < count) chosen.add(int(teams.length));
    for (const t of chosen) tie(teams[t]!.id, user.id);
  }
  const focusTeamIdx = new Set<number>();
  while (focusTeamIdx.size < size.focusTeams) focusTeamIdx.add(int(size.teams));
  const focusTeamIds = new Set([...focusTeamIdx].map((i) => activeTeams[i]!.id));
  for (const id of focusTeamIds) tie(id, focus.id);
  tie(archivedTeams[0]!.id, focus.id);
  const revokedFor = activeTeams.filter((t) => !focusTeamIds.has(t.id)).slice(0, 2);
  for (const t of revokedFor) tie(t.id, focus.id, true);

  // Folders: roots with children; a few archived children besides (empty of active projects).
  const folders: FolderRow[] = [];
  const childFolders: string[] = [];
  const archivedFolderCount = Math.max(1, Math.round((size.rootFolders * size.childrenPerRoot) / 100));
  for (let r = 0; r < size.rootFolders; r++) {
    const root = {
      id: uuid(),
      organization_id: org.id,
      parent_id: null,
      name: `${pick(WORDS)} ${pad(r, 3)}`,
      sort_key: pad((r + 1) * 1000, 10),
      created_at: stamp(),
      archived_at: null,
    };
    folders.push(root);
    for (let c = 0; c < size.childrenPerRoot; c++) {
      const child = {
        id: uuid(),
        organization_id: org.id,
        parent_id: root.id,
        name: `${root.name}.${c}`,
        sort_key: pad((c + 1) * 1000, 10),
        created_at: stamp(),
        archived_at: null,
      };
      folders.push(child);
      childFolders.push(child.id);
    }
  }
  const activeFolderIds = folders.map((f) => f.id);
  const archivedFolders: string[] = [];
  for (let i = 0; i < archivedFolderCount; i++) {
    const parent = folders[int(size.rootFolders * (size.childrenPerRoot + 1))]!;
    const f = {
      id: uuid(),
      organization_id: org.id,
      parent_id: parent.id,
      name: `Old ${i}`,
      sort_key: pad(99_000 + i, 10),
      created_at: stamp(),
      archived_at: now,
    };
    folders.push(f);
    archivedFolders.push(f.id);
  }

  // Projects: 5 % at the root, the rest in random active folders; 1 % extra archived ones.
  const archivedProjectCount = Math.max(1, Math.round(size.projects / 100));
  const projects = Array.from({ length: size.projects + archivedProjectCount }, (_, i) => {
    const archived = i >= size.projects;
    const id = uuid();
    const folderId = archived
      ? pick(archivedFolders.concat(activeFolderIds))
      : random() < 0.05
        ? null
        : pick(activeFolderIds);
    return {
      id,
      organization_id: org.id,
      folder_id: folderId,
      name: `${pick(WORDS)} ${pick(WORDS).toLowerCase()} ${pad(i, 5)}`,
      workspace_dir: `/var/lib/hub/workspaces/${org.id}/${id}`,
      created_by: users[1 + int(users.length - 1)]!.id,
      created_at: stamp(),
      archived_at: archived ? now : null,
    };
  });
  const activeProjects = projects.slice(0, size.projects);

  // Grants: each project's creator holds MANAGE; then team grants, then further user grants,
  // each (project, principal) once.
  const grants: {
    id: string;
    organization_id: string;
    project_id: string;
    principal_type: 'USER' | 'TEAM';
    principal_id: string;
    role: Role;
    created_at: string;
    updated_at: string;
  }[] = [];
  const taken = new Set<string>();
  const grant = (projectId: string, type: 'USER' | 'TEAM', principalId: string, role: Role): boolean => {
    const key = `${projectId}|${type}|${principalId}`;
    if (taken.has(key)) return false;
    taken.add(key);
    const at = stamp();
    grants.push({
      id: uuid(),
      organization_id: org.id,
      project_id: projectId,
      principal_type: type,
      principal_id: principalId,
      role,
      created_at: at,
      updated_at: at,
    });
    return true;
  };
  for (const p of projects) {
    if (grants.length >= size.grants) break;
    grant(p.id, 'USER', p.created_by, 'MANAGE');
  }
  const teamGrantTarget = Math.min(size.grants, grants.length + Math.round(size.grants * size.teamGrantShare));
  while (grants.length < teamGrantTarget) grant(pick(projects).id, 'TEAM', pick(teams).id, pick(ROLES));
  while (grants.length < size.grants) grant(pick(projects).id, 'USER', pick(users).id, pick(ROLES));

  // The target of getProject: active, in a folder, granted to one of the focus member's active
  // teams and not to the member directly; it gets a binding below.
  const directOfFocus = new Set(
    grants.filter((g) => g.principal_type === 'USER' && g.principal_id === focus.id).map((g) => g.project_id),
  );
  const activeProjectById = new Map(activeProjects.map((p) => [p.id, p]));
  const viaTeam = grants.find(
    (g) =>
      g.principal_type === 'TEAM' &&
      focusTeamIds.has(g.principal_id) &&
      !directOfFocus.has(g.project_id) &&
      activeProjectById.get(g.project_id)?.folder_id,
  );
  if (!viaTeam) throw new Error('seed: no project reaches the focus member through a team only; raise the grant count');
  const target = activeProjectById.get(viaTeam.project_id)!;
  const targetRole = grants
    .filter((g) => g.project_id === target.id && g.principal_type === 'TEAM' && focusTeamIds.has(g.principal_id))
    .reduce<Role>((best, g) => (RANK[g.role] > RANK[best] ? g.role : best), 'READ');

  // Bindings: live ones on distinct projects (the target among them), a few archived besides.
  const bindings: {
    id: string;
    project_id: string;
    organization_id: string;
    chat_id: string;
    created_at: string;
    archived_at: string | null;
  }[] = [];
  const bound = new Set<string>([target.id]);
  while (bound.size < Math.min(size.bindings, projects.length)) bound.add(pick(projects).id);
  let chat = 0;
  for (const projectId of bound)
    bindings.push({
      id: uuid(),
      project_id: projectId,
      organization_id: org.id,
      chat_id: `oc_${tag}_${pad(chat++, 6)}`,
      created_at: stamp(),
      archived_at: null,
    });
  for (let i = 0; i < Math.max(1, Math.round(size.bindings / 10)); i++) {
    bindings.push({
      id: uuid(),
      project_id: pick(projects).id,
      organization_id: org.id,
      chat_id: `oc_${tag}_${pad(chat++, 6)}`,
      created_at: stamp(),
      archived_at: now,
    });
  }

  // What the endpoints should answer, from the model rather than from SQL.
  const focusPrincipals = new Set([`USER|${focus.id}`, ...[...focusTeamIds].map((id) => `TEAM|${id}`)]);
  const memberProjects = new Set(
    grants
      .filter(
        (g) => focusPrincipals.has(`${g.principal_type}|${g.principal_id}`) && activeProjectById.has(g.project_id),
      )
      .map((g) => g.project_id),
  );
  const activeIds = new Set(activeProjects.map((p) => p.id));

  const tables: [string, readonly object[]][] = [
    ['users', users],
    ['organizations', [org]],
    ['organization_settings', [settings]],
    ['memberships', memberships],
    ['teams', teams],
    ['team_members', teamMembers],
    ['folders', folders],
    ['projects', projects],
    ['project_bindings', bindings],
    ['project_grants', grants],
  ];
  await db.transaction(async (trx) => {
    for (const [table, rows] of tables) await trx.batchInsert(table, rows as readonly Record<string, unknown>[], CHUNK);
  });

  return {
    org: { id: org.id, slug: org.slug, name: org.name },
    owner: { id: owner.id, imOpenId: owner.im_open_id },
    member: { id: focus.id, imOpenId: focus.im_open_id, activeTeams: focusTeamIds.size },
    targetProject: { id: target.id, memberRole: targetRole },
    expected: {
      activeFolders: activeFolderIds.length,
      activeChildFolders: childFolders.length,
      activeProjects: activeProjects.length,
      activeProjectsInFolders: activeProjects.filter((p) => p.folder_id !== null).length,
      activeBindingsOnActiveProjects: bindings.filter((b) => b.archived_at === null && activeIds.has(b.project_id))
        .length,
      activeMembers: memberships.length,
      memberProjects: memberProjects.size,
    },
    rows: Object.fromEntries(tables.map(([table, rows]) => [table, rows.length])),
    seedMs: performance.now() - started,
  };
}
