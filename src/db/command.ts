import { parseCommandArgs } from '../cli/args.js';
import type { Output, WithRuntime } from '../cli/command.js';

/**
 * `hub migrate`: applies the pending migrations, which opening the runtime does, and says which.
 * The runtime it is given may create the database; no other command's may.
 */
export async function migrateCommand(args: string[], withRuntime: WithRuntime, io: { stdout: Output }): Promise<void> {
  parseCommandArgs(args, {}, 0);
  await withRuntime(async ({ migrationsApplied }) => {
    const report = migrationsApplied.length ? `applied ${migrationsApplied.join(', ')}` : 'already up to date';
    io.stdout.write(`migrations: ${report}\n`);
  });
}
