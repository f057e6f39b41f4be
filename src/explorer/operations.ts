import type { Services } from '../app/services.js';
import type { OperationModule } from '../http/operation-table.js';
import type { Schema } from '../http/operation-types.js';
import { byCodeUnits, byName } from '../shared/order.js';
import { isInListOrder, sortedItemsOf } from '../shared/listed-text.js';
import { listOrder } from '../shared/pagination.js';
import { JsonText } from '../http/json-text.js';
import { folderOrder } from '../folder-tree/order.js';
import { toExplorerFolder, toExplorerProject } from './mapper.js';

type ExplorerData = Schema<'ExplorerData'>;
type ExplorerProject = Schema<'ExplorerProject'>;

/** Projects by name as people read them, then id, so the order is total. */
const projectOrder = listOrder((project: ExplorerProject) => [project.name, project.id], byName, byCodeUnits);

/** The admin's whole tree, and a member's own projects. */
export function explorerOperations({ explorer }: Services) {
  return {
    getExplorer: {
      rule: 'orgAdmin',
      async handle({ access }) {
        const { folders, projectsJson } = await explorer.tree(access.organization.id);
        const sortedFolders = folderOrder.sorted(folders.map(toExplorerFolder));
        // The database wrote the projects in the list's order unless a name holds a character
        // `isInListOrder` looks for: the text is then the answer's as it is (20,000 projects: no
        // parse, no objects, no serializing again). Otherwise they are sorted here.
        if (isInListOrder(projectsJson))
          return JsonText.of<ExplorerData>(
            `{"folders":${JSON.stringify(sortedFolders)},"projects":`,
            projectsJson,
            '}',
          );
        return { folders: sortedFolders, projects: sortedItemsOf(projectsJson, projectOrder) };
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
