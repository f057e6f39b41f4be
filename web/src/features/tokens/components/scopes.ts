import type { Schemas } from '../../../lib/api-client';

export type Scope = Schemas['Scope'];
export type Access = 'none' | 'read' | 'write';

/** The areas a token's scopes name, in the order the form shows them, with what each covers. */
export const AREAS = [
  { area: 'org', label: 'Organization', covers: 'the organization and its settings' },
  { area: 'members', label: 'Members', covers: 'members and their roles' },
  { area: 'teams', label: 'Teams', covers: 'teams and team members' },
  { area: 'projects', label: 'Projects', covers: 'folders, projects, sessions, team access' },
  { area: 'usage', label: 'Usage', covers: 'usage reports' },
  { area: 'connections', label: 'Connections', covers: 'provider, chat and capability connections' },
  { area: 'capacity', label: 'Capacity', covers: 'capacity limits' },
  { area: 'agents', label: 'Agents', covers: 'roles, skills, the library, models' },
  { area: 'audit', label: 'Audit log', covers: 'audit events' },
  { area: 'webhooks', label: 'Webhooks', covers: 'webhook endpoints and their deliveries' },
  { area: 'serviceAccounts', label: 'Service accounts', covers: 'service accounts and their roles' },
  { area: 'policies', label: 'Policies', covers: 'usage policies and admission' },
] as const;
export type Area = (typeof AREAS)[number]['area'];

/** The scopes a choice of access per area stands for (write implies read, so one scope each). */
export const scopesOf = (access: Partial<Record<Area, Access>>): Scope[] =>
  AREAS.flatMap(({ area }) => {
    const level = access[area] ?? 'none';
    return level === 'none' ? [] : [`${area}:${level}` as Scope];
  });
