import { parseCommandArgs } from '../cli/args.js';
import { organizationNamed, type Output, type WithRuntime } from '../cli/command.js';
import { UsageError } from '../cli/usage-error.js';
import { CAPACITY_DIMENSIONS, isCapacityDimension } from './dimensions.js';

/**
 * `hub capacity clear <org> <dimension>`: lifts the organization's own limit of a dimension, so
 * its effective limit becomes the platform ceiling.
 */
export async function capacityCommand(args: string[], withRuntime: WithRuntime, io: { stdout: Output }): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'clear') throw new UsageError(`unknown subcommand "capacity ${sub ?? ''}"; expected "capacity clear"`);
  const { positionals } = parseCommandArgs(rest, {}, 2);
  const [orgSlug, dimension] = positionals as [string, string];
  if (!isCapacityDimension(dimension))
    throw new UsageError(`"${dimension}" is no capacity dimension; expected one of ${CAPACITY_DIMENSIONS.join(', ')}`);
  await withRuntime(async (runtime) => {
    const org = await organizationNamed(runtime, orgSlug);
    const cleared = await runtime.capacity.clearLimit(org.id, dimension);
    const effective = await runtime.capacity.effectiveLimit(org.id, dimension);
    io.stdout.write(
      `${cleared ? 'cleared' : 'no limit to clear:'} ${orgSlug} ${dimension}; effective limit ${effective} (the ` +
        `platform ceiling)\n`,
    );
  });
}
