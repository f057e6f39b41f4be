import { parseCommandArgs, requiredFlag } from '../cli/args.js';
import { organizationNamed, type Output, type WithRuntime } from '../cli/command.js';
import { UsageError } from '../cli/usage-error.js';
import { BindingConflict } from './service.js';

/**
 * `hub project bind <org> <projectId> <chatId>`: binds a chat to a project, replacing the
 * project's previous chat; a chat that feeds another project is refused.
 *
 * `hub project force-release <org> <projectId> --manager <imOpenId|team-slug>`: gives MANAGE on
 * the project to that member or active team, whoever holds what (src/projects/force-release.ts).
 */
export async function projectCommand(args: string[], withRuntime: WithRuntime, io: { stdout: Output }): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'force-release') return forceRelease(rest, withRuntime, io);
  if (sub !== 'bind')
    throw new UsageError(
      `unknown subcommand "project ${sub ?? ''}"; expected "project bind" or "project force-release"`,
    );
  const { positionals } = parseCommandArgs(rest, {}, 3);
  const [orgSlug, projectId, chatId] = positionals as [string, string, string];
  await withRuntime(async (runtime) => {
    const org = await organizationNamed(runtime, orgSlug);
    try {
      const { replaced } = await runtime.projects.bindChat(org.id, projectId, chatId);
      io.stdout.write(
        `bound chat ${chatId} to project ${projectId}${replaced ? ` (replacing chat ${replaced})` : ''}\n`,
      );
    } catch (err) {
      if (err instanceof BindingConflict) throw new UsageError(err.message);
      throw err;
    }
  });
}

async function forceRelease(args: string[], withRuntime: WithRuntime, io: { stdout: Output }): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, { manager: { type: 'string' } }, 2);
  const manager = requiredFlag(values.manager, '--manager');
  const [orgSlug, projectId] = positionals as [string, string];
  await withRuntime(async (runtime) => {
    const org = await organizationNamed(runtime, orgSlug);
    const released = await runtime.forceRelease.forceRelease(org.id, projectId, manager);
    const who =
      released.manager.type === 'user' ? `member ${released.manager.imOpenId}` : `team ${released.manager.teamSlug}`;
    const was = released.previousRole ? ` (was ${released.previousRole})` : '';
    io.stdout.write(`gave MANAGE on project "${released.projectName}" (${projectId}) to ${who}${was}\n`);
  });
}
