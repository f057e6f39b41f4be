import type { Services } from '../app/services.js';
import type { OperationModule } from '../http/operation-table.js';
import type { Schema } from '../http/operation-types.js';
import { byCodeUnits, byName } from '../shared/order.js';
import { listOrder } from '../shared/pagination.js';
import { folderOrder } from '../folder-tree/order.js';
import { toExplorerFolder, toExplorerProject } from './mapper.js';

type ExplorerProject = Schema<'ExplorerProject'>;

/** Projects by name as people read them, then id, so the order is total. */
const projectOrder = listOrder((project: ExplorerProject) => [project.name, project.id], byName, byCodeUnits);

/** The admin's whole tree, and a member's own projects. */
export function explorerOperations({ explorer }: Services) {
  return {
    getExplorer: {
      rule: 'orgAdmin',
      async handle({ access }) {
        const { folders, projects } = await explorer.tree(access.organization.id);
        return {
          folders: folderOrder.sorted(folders.map(toExplorerFolder)),
          projects: projectOrder.sorted(projects.map(toExplorerProject)),
        };
      },
    },

    listMyProjects: {
      rule: 'member',
      async handle({ access, session }) {
        const projects = await explorer.projectsOfUser(access.organization.id, session.user.id);
        return { projects: projectOrder.sorted(projects.map(toExplorerProject)) };
      },
    },
  } satisfies OperationModule;
}
