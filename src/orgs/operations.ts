import type { Services } from '../app/services.js';
import type { OperationModule } from '../http/operation-table.js';

/** The organization itself and its settings. */
export function organizationOperations({ organizations }: Services): OperationModule {
  return {
    getOrganization: {
      rule: 'member',
      async handle({ access }) {
        return { organization: access.organization, actorRole: access.role };
      },
    },

    getOrgSettings: {
      rule: 'member',
      handle: ({ access }) => organizations.getSettings(access.organization.id),
    },

    updateOrgSettings: {
      rule: 'orgAdmin',
      handle: ({ access, body }) => organizations.updateSettings(access.organization.id, body),
    },
  };
}
