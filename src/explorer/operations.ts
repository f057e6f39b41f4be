import type { Services } from '../app/services.js';
import type { OperationModule } from '../http/operation-table.js';
import type { Schema } from '../http/operation-types.js';
import { byCodeUnits, byName } from '../shared/order.js';
import { listOrder } from '../shared/pagination.js';
import { listedAnswer } from '../http/json-text.js';
import { folderOrder } from '../folder-tree/order.js';
import { toExplorerFolder } from './mapper.js';

type ExplorerData = Schema<'ExplorerData'>;
type ExplorerProject = Schema<'ExplorerProject'>;
type MyProjectList = Schema<'MyProjectList'>;

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
        return listedAnswer(
          projectsJson,
          projectOrder,
          [`{"folders":${JSON.stringify(sortedFolders)},"projects":`, '}'],
          (projects): ExplorerData => ({ folders: sortedFolders, projects }),
        );
      },
    },

    listMyProjects: {
      rule: 'member',
      async handle({ access, session }) {
        const projectsJson = await explorer.projectsOfUser(access.organization.id, session.user.id);
        return listedAnswer(
          projectsJson,
          projectOrder,
          ['{"projects":', '}'],
          (projects): MyProjectList => ({ projects }),
        );
      },
    },
  } satisfies OperationModule;
}
