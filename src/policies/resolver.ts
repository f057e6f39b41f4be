import type { Schema } from '../api/types.js';

export type Allow = Schema<'UsageAllow'>;
export type PolicySource = {
  type: 'organization' | 'folder' | 'project' | 'team';
  id: string | null;
  label: string | null;
};

/** One scope's allow and where it was set. */
export interface ScopedAllow {
  source: PolicySource;
  allow: Allow;
}

/**
 * The policies that bear on a run (docs/policies-and-admission.md): those of its path — the
 * organization, each folder from the root, the project — and those of the initiator's teams.
 */
export interface PolicyChain {
  path: readonly ScopedAllow[];
  teams: readonly ScopedAllow[];
}

/** What a single allow says of one thing: true when it lets it through. */
export type Permits = (allow: Allow) => boolean;

/**
 * The one resolve of the effective allow that admission, the model picker and the capability
 * check all read: the sources that keep `permits` from holding. Every policy of the path must
 * permit (intersection), each one that does not is named; then, when the initiator's teams have
 * policies, one of them must permit (union), and when none does, all of them are named. Empty:
 * allowed.
 */
export function refusedBy(chain: PolicyChain, permits: Permits): PolicySource[] {
  const refusing = chain.path.filter((scoped) => !permits(scoped.allow)).map((scoped) => scoped.source);
  if (chain.teams.length > 0 && !chain.teams.some((scoped) => permits(scoped.allow)))
    refusing.push(...chain.teams.map((scoped) => scoped.source));
  return refusing;
}

/** A list left out narrows nothing; a list given lets through what it names. */
const listed = (list: readonly string[] | undefined, item: string) => list === undefined || list.includes(item);

export const permitsModel =
  (model: string): Permits =>
  (allow) =>
    listed(allow.models, model);

export const permitsProvider =
  (provider: string): Permits =>
  (allow) =>
    listed(allow.providers, provider);

export const permitsCapability =
  (capabilityId: string): Permits =>
  (allow) =>
    allow.capabilities === undefined || allow.capabilities.some((entry) => entry.id === capabilityId);

/** A capability entry without `tools` lets every tool of the capability through. */
export const permitsTool =
  (capabilityId: string, tool: string): Permits =>
  (allow) =>
    allow.capabilities === undefined ||
    allow.capabilities.some((entry) => entry.id === capabilityId && listed(entry.tools, tool));
