import type { DirectorySettings, MappedRole } from '../identity/provider-store.js';

/** The directory groups a sign-in carried, or that the provider left them out (Entra ID's overage). */
export interface GroupsClaim {
  groups: string[];
  /**
   * The provider said the groups are elsewhere instead of sending them: Entra ID names the claim in
   * `_claim_names` when a person is in more groups than a token holds. What they are is unknown.
   */
  overage: boolean;
}

/** The most groups read from one claim; a directory sending more is cut short rather than slow. */
const MAX_GROUPS = 1000;

/** The groups in `claims[groupsClaim]`: an array of strings, or one string; anything else is none. */
export function groupsOf(claims: Readonly<Record<string, unknown>>, groupsClaim: string): GroupsClaim {
  const value = claims[groupsClaim];
  const names = claims._claim_names;
  const overage =
    value === undefined && typeof names === 'object' && names !== null && groupsClaim in (names as object);
  const raw = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  const groups = [...new Set(raw.filter((g): g is string => typeof g === 'string' && g !== ''))].slice(0, MAX_GROUPS);
  return { groups, overage };
}

/** What the directory gives one person: the role (and the group it came from), and each team with its group. */
export interface DirectoryDecision {
  /** The highest mapped role, else the default; null: no membership from the directory. */
  role: MappedRole | null;
  /** The group the role came from; null when it is the default role (or none). */
  roleGroup: string | null;
  /** Team id → the first group (in mapping order) that gives it. */
  teams: Map<string, string>;
  /** Whether any mapping matched one of the groups. */
  matched: boolean;
}

const RANK: Record<MappedRole, number> = { MEMBER: 1, ADMIN: 2 };

/**
 * What the mappings give someone in `groups`. The highest role any matched mapping gives wins;
 * without one, a matched mapping that gives only a team makes a MEMBER (a team needs a member);
 * without any match, `defaultRole`. OWNER is never among them.
 */
export function decide(
  settings: Pick<DirectorySettings, 'mappings' | 'defaultRole'>,
  groups: string[],
): DirectoryDecision {
  const held = new Set(groups);
  const teams = new Map<string, string>();
  let role: MappedRole | null = null;
  let roleGroup: string | null = null;
  let matched = false;
  for (const mapping of settings.mappings) {
    if (!held.has(mapping.group)) continue;
    matched = true;
    if (mapping.teamId && !teams.has(mapping.teamId)) teams.set(mapping.teamId, mapping.group);
    const given = mapping.role ?? 'MEMBER';
    if (role === null || RANK[given] > RANK[role]) {
      role = given;
      roleGroup = mapping.group;
    }
  }
  if (role === null && settings.defaultRole) role = settings.defaultRole;
  return { role, roleGroup, teams, matched };
}
