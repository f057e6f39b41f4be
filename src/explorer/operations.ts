import type { Services } from '../app/services.js';
import type { OperationModule } from '../http/operation-table.js';
import type { Schema } from '../http/operation-types.js';
import { byCodeUnits, byName } from '../shared/order.js';
import { folderOrder } from '../folder-tree/order.js';
import { toExplorerFolder, toExplorerProject } from './mapper.js';

/** Folders in tree order (sortKey, name, id); projects by name, then id, so the order is total. */
const projectOrder = (a: Schema<'ExplorerProject'>, b: Schema<'ExplorerProject'>) =>
  byName(a.name, b.name) || byCodeUnits(a.id, b.id);

/** The admin's whole tree, and a member's own projects. */
export function explorerOperations({ explorer }: Services): OperationModule {
  return {
    getExplorer: {
      rule: 'orgAdmin',
      async handle({ access }) {
        const [folders, projects] = await Promise.all([
          explorer.activeFolders(access.organization.id),
          explorer.activeProjects(access.organization.id),
        ]);
        return {
          folders: folders.map(toExplorerFolder).sort(folderOrder),
          projects: projects.map(toExplorerProject).sort(projectOrder),
        };
      },
    },

    listMyProjects: {
      rule: 'member',
      async handle({ access, session }) {
        const projects = await explorer.projectsOfUser(access.organization.id, session.user.id);
        return { projects: projects.map(toExplorerProject).sort(projectOrder) };
      },
    },
  };
}
