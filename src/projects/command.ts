import { parseCommandArgs } from '../cli/args.js';
import { organizationNamed, type Output, type WithRuntime } from '../cli/command.js';
import { UsageError } from '../cli/usage-error.js';
import { BindingConflict } from './service.js';

/**
 * `hub project bind <org> <projectId> <chatId>`: binds a chat to a project, replacing the
 * project's previous chat; a chat that feeds another project is refused.
 */
export async function projectCommand(args: string[], withRuntime: WithRuntime, io: { stdout: Output }): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'bind') throw new UsageError(`unknown subcommand "project ${sub ?? ''}"; expected "project bind"`);
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
