import { parseCommandArgs, requiredFlag } from '../cli/args.js';
import type { Output, WithRuntime } from '../cli/command.js';
import { UsageError } from '../cli/usage-error.js';
import { CONSOLE_ACTOR } from '../audit/scope.js';

/**
 * `hub org create <slug> --name N (--owner <imOpenId> [--owner-name D] [--avatar-url https://…] |
 * --owner-email E --provider P)`: an organization and its first OWNER, the way a host starts one
 * before anyone can sign in to it; or one that waits for its owner, whoever first signs in through
 * the provider P with the verified address E (src/orgs/pending-owner.ts).
 */
export async function orgCommand(args: string[], withRuntime: WithRuntime, io: { stdout: Output }): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'purge') return purgeCommand(rest, withRuntime, io);
  if (sub === 'list') return listCommand(rest, withRuntime, io);
  if (sub !== 'create')
    throw new UsageError(`unknown subcommand "org ${sub ?? ''}"; expected "org create", "org list" or "org purge"`);
  const { values, positionals } = parseCommandArgs(
    rest,
    {
      name: { type: 'string' },
      owner: { type: 'string' },
      'owner-name': { type: 'string' },
      'avatar-url': { type: 'string' },
      'owner-email': { type: 'string' },
      provider: { type: 'string' },
    },
    1,
  );
  const name = requiredFlag(values.name, '--name');
  const slug = positionals[0]!;
  if (values['owner-email'] !== undefined || values.provider !== undefined) {
    if (values.owner !== undefined || values['owner-name'] !== undefined || values['avatar-url'] !== undefined)
      throw new UsageError(
        '--owner-email and --provider name an owner who signs in later; ' +
          'leave out --owner, --owner-name and --avatar-url',
      );
    const ownerEmail = requiredFlag(values['owner-email'], '--owner-email');
    const providerId = requiredFlag(values.provider, '--provider');
    await withRuntime(async (runtime) => {
      const org = await runtime.organizations.createAwaitingOwner({ slug, name, ownerEmail, providerId });
      const owner = waitingFor({ email: ownerEmail.trim().toLowerCase(), providerId });
      io.stdout.write(`created organization ${org.slug} (${org.id}), waiting for its owner: ${owner}\n`);
    });
    return;
  }
  const owner = requiredFlag(values.owner, '--owner');
  await withRuntime(async (runtime) => {
    const org = await runtime.organizations.create({
      slug,
      name,
      ownerImOpenId: owner,
      ownerDisplayName: values['owner-name'],
      ownerAvatarUrl: values['avatar-url'],
    });
    io.stdout.write(`created organization ${org.slug} (${org.id}) with owner ${owner}\n`);
  });
}

/** How the console names the owner an organization waits for. */
const waitingFor = (owner: { email: string; providerId: string }) =>
  `the first sign-in of ${owner.email} through ${owner.providerId} (its domain verified for the organization)`;

/**
 * `hub org list`: every organization, one per line: slug, id, status, name, and the owner it waits
 * for while nobody has claimed it.
 */
async function listCommand(args: string[], withRuntime: WithRuntime, io: { stdout: Output }): Promise<void> {
  parseCommandArgs(args, {}, 0);
  await withRuntime(async (runtime) => {
    for (const { organization: org, pendingOwner } of await runtime.organizations.listForOperator()) {
      const state = org.status === 'DELETING' ? `deleting (purge at ${org.purge_at})` : 'active';
      const waiting = pendingOwner ? `\twaiting for its owner: ${waitingFor(pendingOwner)}` : '';
      io.stdout.write(`${org.slug}\t${org.id}\t${state}\t${org.name}${waiting}\n`);
    }
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
