import type { OrganizationService } from './service.js';
import type { OperationModule } from '../http/operation-table.js';
import { organizationResponseProjection, orgSettingsProjection } from './projection.js';

const toOrgSettings = orgSettingsProjection.toApi;

/** The organization itself and its settings. */
export function organizationOperations(organizations: OrganizationService) {
  return {
    getOrganization: {
      rule: 'member',
      handle: async ({ access }) => organizationResponseProjection.toApi(access),
    },

    getOrgSettings: {
      rule: 'member',
      handle: async ({ access }) => toOrgSettings(await organizations.getSettings(access.organization.id)),
    },

    updateOrgSettings: {
      rule: 'orgAdmin',
      handle: async ({ access, body }) =>
        toOrgSettings(await organizations.updateSettings(access.organization.id, body)),
    },
  } satisfies OperationModule;
}
