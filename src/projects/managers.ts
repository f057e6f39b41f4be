import type { Schema } from '../api/types.js';
import type { Executor } from '../db/unit-of-work.js';
import { byCodeUnits, byName } from '../shared/order.js';

/** A live project of the organization, and whether any active member can manage it. */
export interface ManagedStateRecord {
  id: string;
  name: string;
  folder_id: string | null;
  managed: boolean;
}

/**
 * The one definition of "someone can manage this project": an active member holds MANAGE on it
 * through a grant of their own, or through an active team they actively belong to — the paths
 * the project guard accepts for `projectManage`. Org roles give no override, so a project
 * without such a path is managed by nobody until the host console gives it a manager
 * (`hub project force-release`).
 */
const MANAGED = `(
  exists (select 1 from project_grants g
            join memberships m on m.user_id = g.principal_id and m.organization_id = p.organization_id
           where g.project_id = p.id and g.principal_type = 'USER' and g.role = 'MANAGE' and m.revoked_at is null)
  or exists (select 1 from project_grants g
               join teams t on t.id = g.principal_id and t.archived_at is null
               join team_members tm on tm.team_id = t.id and tm.revoked_at is null
               join memberships m on m.user_id = tm.user_id and m.organization_id = p.organization_id
              where g.project_id = p.id and g.principal_type = 'TEAM' and g.role = 'MANAGE'
                and m.revoked_at is null))`;

/** The organization's live projects with whether each is managed, as the explorer orders them. */
export async function managedStates(db: Executor, organizationId: string): Promise<ManagedStateRecord[]> {
  const rows = await db('projects as p')
    .where('p.organization_id', organizationId)
    .whereNull('p.archived_at')
    .select<Array<Omit<ManagedStateRecord, 'managed'> & { managed: number | boolean }>>(
      'p.id',
      'p.name',
      'p.folder_id',
      db.raw(`case when ${MANAGED} then 1 else 0 end as managed`),
    );
  return rows
    .map((row) => ({ ...row, managed: Boolean(Number(row.managed)) }))
    .sort((a, b) => byName(a.name, b.name) || byCodeUnits(a.id, b.id));
}

/** The organization's live projects nobody can manage, as the explorer orders them. */
export async function unmanagedProjects(db: Executor, organizationId: string): Promise<ManagedStateRecord[]> {
  return (await managedStates(db, organizationId)).filter((project) => !project.managed);
}

/**
 * What the host operator runs to give a project a manager; `<imOpenId|team-slug>` is left for
 * whoever asks the operator to fill in.
 */
export const forceReleaseCommand = (orgSlug: string, projectId: string): string =>
  `hub project force-release ${orgSlug} ${projectId} --manager <imOpenId|team-slug>`;

/** A project nobody can manage, as an answer shows it: with the command an operator runs. */
export const unmanagedProjectOf = (orgSlug: string, project: ManagedStateRecord): Schema<'UnmanagedProject'> => ({
  id: project.id,
  name: project.name,
  forceReleaseCommand: forceReleaseCommand(orgSlug, project.id),
});

/**
 * Runs `change` and answers the projects it left unmanaged (managed before, not after), in the
 * same transaction, so the answer is what the change did and nothing that happened beside it.
 */
export async function projectsLeftUnmanaged(
  trx: Executor,
  organizationId: string,
  change: () => Promise<void>,
): Promise<ManagedStateRecord[]> {
  const before = new Set((await unmanagedProjects(trx, organizationId)).map((project) => project.id));
  await change();
  return (await unmanagedProjects(trx, organizationId)).filter((project) => !before.has(project.id));
}
