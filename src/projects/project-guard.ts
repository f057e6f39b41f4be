import { forbidden, notFound } from '../errors/api-error.js';
import { isOrgAdminRole, type ProjectRule } from '../auth/rules.js';
import { grantAtLeast, strongestGrant, type GrantRole } from '../grants/roles.js';
import type { GrantStore } from '../grants/store.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import type { OrgAccess } from '../orgs/store.js';
import type { ProjectRecord } from './project.js';
import type { ProjectStore } from './store.js';

/** What the project rules established about the caller and the project in the path. */
export interface ProjectAccess {
  /** The project's own row, read in the same statement as the grants. */
  project: ProjectRecord;
  /** The strongest grant the caller holds through any principal, or null. */
  grant: GrantRole | null;
  isOrgAdmin: boolean;
}

/** The operation being decided, as the refusal names it. */
export interface GuardedOperation {
  operationId: string;
  summary: string;
}

/** The operation as a refusal names it: `"List members" (listMembers)`. */
export const describeOperation = (operation: GuardedOperation): string =>
  `"${operation.summary}" (${operation.operationId})`;

/**
 * Decides the `projectRead` and `projectManage` rules: may this member read, or manage the
 * team access of, the project in the path? Org role is not a project authorization root:
 * access comes from grants. Org admins may read any project of their organization
 * (oversight) but manage it only with a MANAGE grant of their own.
 */
export class ProjectGuard {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly projects: ProjectStore,
    private readonly grants: GrantStore,
  ) {}

  async check(
    rule: ProjectRule,
    operation: GuardedOperation,
    access: OrgAccess,
    userId: string,
    projectId: string,
  ): Promise<ProjectAccess> {
    const found = await this.projects.findInOrgWithRoles(this.uow.reader, {
      organizationId: access.organization.id,
      projectId,
      userId,
    });
    if (!found) throw notFound('project_not_found', `No project ${projectId} in this organization.`);
    const { project } = found;
    const grant = strongestGrant(found.roles);
    const isOrgAdmin = isOrgAdminRole(access.role);
    const refused = describeOperation(operation);
    if (rule === 'projectRead' && !isOrgAdmin && !grantAtLeast(grant, 'READ')) {
      throw forbidden(
        'project_access_denied',
        `${refused} needs a grant on this project, and you hold none; see /my-projects for the projects you can open.`,
      );
    }
    if (rule === 'projectManage' && !grantAtLeast(grant, 'MANAGE')) {
      throw forbidden(
        'project_manage_required',
        `${refused} needs the MANAGE grant on this project; org admins get no override.`,
      );
    }
    return { project, grant, isOrgAdmin };
  }

  /** The strongest grant the user holds on the project, through themselves or an active team. */
  async grantOf(organizationId: string, userId: string, projectId: string): Promise<GrantRole | null> {
    return strongestGrant(await this.grants.rolesOnProject(this.uow.reader, organizationId, userId, projectId));
  }
}
