import type { ExplorerService } from './service.js';
import type { OperationModule } from '../http/operation-table.js';
import { explorerFolderProjection } from './projection.js';

const folders = explorerFolderProjection;

/** The admin's whole tree, and a member's own projects. */
export function explorerOperations(explorer: ExplorerService) {
  return {
    getExplorer: {
      rule: 'orgAdmin',
      async handle({ access }) {
        const tree = await explorer.tree(access.organization.id);
        return { folders: folders.order.sorted(tree.folders.map(folders.toApi)), projects: tree.projects.whole() };
      },
    },

    listMyProjects: {
      rule: 'member',
      handle: async ({ access, session }) => ({
        projects: (await explorer.projectsOfUser(access.organization.id, session.user.id)).whole(),
      }),
    },
  } satisfies OperationModule;
}
