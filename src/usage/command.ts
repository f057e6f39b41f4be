import fs from 'node:fs';
import { parseCommandArgs, requiredFlag } from '../cli/args.js';
import { type Output, organizationNamed, type WithRuntime } from '../cli/command.js';
import { UsageError } from '../cli/usage-error.js';
import { IngestError } from './ingest-tally.js';

/**
 * `hub usage ingest <file.jsonl> --org <slug>`: a file of agent runs loaded all or nothing, its
 * progress on stderr; `hub usage rebuild-rollups <org>`: every level of the organization's rollups
 * recomputed from its raw runs. A bad line is the caller's mistake and names its line.
 */
export async function usageCommand(
  args: string[],
  withRuntime: WithRuntime,
  io: { stdout: Output; stderr: Output },
): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'rebuild-rollups') return rebuildRollups(rest, withRuntime, io.stdout);
  if (sub !== 'ingest')
    throw new UsageError(`unknown subcommand "usage ${sub ?? ''}"; expected "usage ingest" or "usage rebuild-rollups"`);
  const { values, positionals } = parseCommandArgs(rest, { org: { type: 'string' } }, 1);
  const orgSlug = requiredFlag(values.org, '--org');
  const file = positionals[0]!;
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new UsageError(`no file "${file}"`);
  await withRuntime(async (runtime) => {
    const org = await organizationNamed(runtime, orgSlug);
    try {
      const started = Date.now();
      const result = await runtime.usage.ingest(org.id, file, ({ phase, lines }) => {
        io.stderr.write(`${phase} ${lines} runs…\n`);
      });
      const seconds = (Date.now() - started) / 1000;
      io.stdout.write(
        `ingested ${result.runs} runs in ${result.sessions} sessions into ${orgSlug} (${seconds.toFixed(1)} s)\n`,
      );
    } catch (err) {
      if (err instanceof IngestError) throw new UsageError(`${file}: ${err.message}`);
      throw err;
    }
  });
}

async function rebuildRollups(args: string[], withRuntime: WithRuntime, stdout: Output): Promise<void> {
  const { positionals } = parseCommandArgs(args, {}, 1);
  const orgSlug = positionals[0]!;
  await withRuntime(async (runtime) => {
    const org = await organizationNamed(runtime, orgSlug);
    await runtime.usage.rebuildRollups(org.id);
    stdout.write(`rebuilt the usage rollups of ${orgSlug}\n`);
  });
}
