import { parseCommandArgs, requiredFlag } from '../cli/args.js';
import type { Output, WithRuntime } from '../cli/command.js';
import { UsageError } from '../cli/usage-error.js';
import { CONSOLE_ACTOR } from '../audit/scope.js';

/**
 * `hub org create <slug> --name N --owner <imOpenId> [--owner-name D] [--avatar-url https://…]`:
 * an organization and its first OWNER, the way a host starts one before anyone can sign in to it.
 */
export async function orgCommand(args: string[], withRuntime: WithRuntime, io: { stdout: Output }): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'purge') return purgeCommand(rest, withRuntime, io);
  if (sub !== 'create')
    throw new UsageError(`unknown subcommand "org ${sub ?? ''}"; expected "org create" or "org purge"`);
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

/**
 * `hub org purge <org> --confirm <org>`: removes an organization being deleted now, rather than
 * at its purgeAt; the slug given twice is the operator's confirmation, as nothing of it remains.
 */
async function purgeCommand(args: string[], withRuntime: WithRuntime, io: { stdout: Output }): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, { confirm: { type: 'string' } }, 1);
  const slug = positionals[0]!;
  if (requiredFlag(values.confirm, '--confirm') !== slug)
    throw new UsageError(`--confirm must repeat the organization's slug "${slug}": the purge cannot be undone`);
  await withRuntime(async (runtime) => {
    const org = await runtime.organizations.findBySlug(slug);
    if (!org) throw new UsageError(`no organization "${slug}"`);
    if (org.status !== 'DELETING')
      throw new UsageError(
        `organization "${slug}" is not being deleted; an OWNER deletes it first (DELETE /api/org/${slug})`,
      );
    const purged = await runtime.purge.purgeNow(org.id, CONSOLE_ACTOR);
    if (!purged) throw new UsageError(`organization "${slug}" is being purged by another instance right now`);
    const rows = Object.values(purged.rows).reduce((sum, n) => sum + n, 0);
    io.stdout.write(`purged organization ${slug} (${org.id}): ${rows} rows and its files removed\n`);
  });
}
