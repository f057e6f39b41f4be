import type { Services } from '../app/services.js';
import type { OperationModule } from '../http/operation-table.js';
import type { Schema } from '../http/operation-types.js';
import { byCodeUnits, byName } from '../shared/order.js';
import { isInListOrder, sortedItemsOf } from '../shared/listed-text.js';
import { listOrder } from '../shared/pagination.js';
import { JsonText } from '../http/json-text.js';
import { folderOrder } from '../folder-tree/order.js';
import { toExplorerFolder } from './mapper.js';

type ExplorerData = Schema<'ExplorerData'>;
type ExplorerProject = Schema<'ExplorerProject'>;
type MyProjectList = Schema<'MyProjectList'>;

/** Projects by name as people read them, then id, so the order is total. */
const projectOrder = listOrder((project: ExplorerProject) => [project.name, project.id], byName, byCodeUnits);

/**
 * An answer holding a list of projects, from their JSON text as the database wrote it: the text is
 * the answer's `projects` as it is (20,000 projects: no parse, no objects, no serializing again)
 * unless a name holds a character `isInListOrder` looks for; they are then sorted here. `opening`
 * is the answer's text up to its `projects` member, `answer` makes the answer from sorted projects.
 */
function projectsAnswer<Answer>(
  projectsJson: Buffer,
  opening: string,
  answer: (projects: ExplorerProject[]) => Answer,
): JsonText<Answer> | Answer {
  if (isInListOrder(projectsJson)) return JsonText.of<Answer>(`${opening}"projects":`, projectsJson, '}');
  return answer(sortedItemsOf(projectsJson, projectOrder));
}

/** The admin's whole tree, and a member's own projects. */
export function explorerOperations({ explorer }: Services) {
  return {
    getExplorer: {
      rule: 'orgAdmin',
      async handle({ access }) {
        const { folders, projectsJson } = await explorer.tree(access.organization.id);
        const sortedFolders = folderOrder.sorted(folders.map(toExplorerFolder));
        return projectsAnswer<ExplorerData>(
          projectsJson,
          `{"folders":${JSON.stringify(sortedFolders)},`,
          (projects) => ({
            folders: sortedFolders,
            projects,
          }),
        );
      },
    },

    listMyProjects: {
      rule: 'member',
      async handle({ access, session }) {
        const projectsJson = await explorer.projectsOfUser(access.organization.id, session.user.id);
        return projectsAnswer<MyProjectList>(projectsJson, '{', (projects) => ({ projects }));
      },
    },
  } satisfies OperationModule;
}
