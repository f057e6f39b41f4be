import { parseCommandArgs, requiredFlag } from '../cli/args.js';
import type { Output, WithRuntime } from '../cli/command.js';
import { UsageError } from '../cli/usage-error.js';

/**
 * `hub org create <slug> --name N --owner <imOpenId> [--owner-name D] [--avatar-url https://…]`:
 * an organization and its first OWNER, the way a host starts one before anyone can sign in to it.
 */
export async function orgCommand(args: string[], withRuntime: WithRuntime, io: { stdout: Output }): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw new UsageError(`unknown subcommand "org ${sub ?? ''}"; expected "org create"`);
  const { values, positionals } = parseCommandArgs(
    rest,
    {
      name: { type: 'string' },
      owner: { type: 'string' },
      'owner-name': { type: 'string' },
      'avatar-url': { type: 'string' },
    },
    1,
  );
  const name = requiredFlag(values.name, '--name');
  const owner = requiredFlag(values.owner, '--owner');
  await withRuntime(async (runtime) => {
    const org = await runtime.organizations.create({
      slug: positionals[0]!,
      name,
      ownerImOpenId: owner,
      ownerDisplayName: values['owner-name'],
      ownerAvatarUrl: values['avatar-url'],
    });
    io.stdout.write(`created organization ${org.slug} (${org.id}) with owner ${owner}\n`);
  });
}
