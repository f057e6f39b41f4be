import { parseCommandArgs } from '../cli/args.js';
import type { Runtime } from '../cli/runtime.js';
import { UsageError } from '../cli/usage-error.js';

/**
 * `hub domain verify <org> <domain>`: the operator binds a domain to an organization without DNS
 * (a company whose records the hub's resolver cannot see, or a set-up before DNS is in place).
 * Audited as the console's; refused, naming why, when another organization has it verified.
 */
export async function domainCommand(
  args: string[],
  withRuntime: (work: (runtime: Runtime) => Promise<void>) => Promise<void>,
  io: { stdout: { write(text: string): unknown } },
): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'verify') throw new UsageError(`unknown subcommand "domain ${sub ?? ''}"; expected "domain verify"`);
  const [orgSlug, domain] = parseCommandArgs(rest, {}, 2, '<org> <domain>').positionals as [string, string];
  await withRuntime(async (runtime) => {
    const org = await runtime.organizations.findBySlug(orgSlug);
    if (!org) throw new UsageError(`no organization "${orgSlug}"`);
    const bound = await runtime.domains.bind(org.id, domain);
    io.stdout.write(`verified ${bound.domain} for ${orgSlug} (${bound.id}) at ${bound.verified_at}\n`);
  });
}
