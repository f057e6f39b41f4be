import { parseCommandArgs } from '../cli/args.js';
import { organizationNamed } from '../cli/command.js';
import type { Runtime } from '../cli/runtime.js';
import { UsageError } from '../cli/usage-error.js';
import { budgetProjection } from './projection.js';

/**
 * `hub budget list <org>`: each budget with its status in the current period, one line each. The
 * runtime refuses a database that is not there rather than making one (src/cli/runtime.ts).
 */
export async function budgetCommand(
  args: string[],
  withRuntime: (work: (runtime: Runtime) => Promise<void>) => Promise<void>,
  io: { stdout: { write(text: string): unknown } },
): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'list') throw new UsageError(`unknown subcommand "budget ${sub ?? ''}"; expected "budget list"`);
  const { positionals } = parseCommandArgs(rest, {}, 1, '<org>');
  const orgSlug = positionals[0]!;
  await withRuntime(async (runtime) => {
    const org = await organizationNamed(runtime, orgSlug);
    const { items } = budgetProjection.pageOf(await runtime.budgets.list(org.id), {});
    for (const budget of items) {
      const { status } = budget;
      const unit = budget.metric === 'costUsd' ? 'USD' : 'tokens';
      const scope = budget.scope.id ? `${budget.scope.type} ${budget.scope.id}` : budget.scope.type;
      io.stdout.write(
        `${budget.name}  ${scope}  ${status.spent} of ${budget.amount} ${unit} per ${budget.period}  ` +
          `${Math.floor(status.percent)} % · ${status.state}  since ${status.periodStart}` +
          `${status.runsWithoutCost ? `  (${status.runsWithoutCost} runs without cost)` : ''}\n`,
      );
    }
    if (items.length === 0) io.stdout.write(`no budgets in ${orgSlug}\n`);
  });
}
