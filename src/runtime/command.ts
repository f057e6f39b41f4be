import { parseCommandArgs } from '../cli/args.js';
import type { Runtime } from '../cli/runtime.js';
import { UsageError } from '../cli/usage-error.js';
import { RuntimeCredentialError } from './credential-service.js';

type Io = { stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown } };

const SUBCOMMANDS = ['create', 'list', 'revoke'];
/** A credential's name: what `revoke` finds it by, one line of a list. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * `hub runtime-credential create|list|revoke`: the host's platform runtime credentials, which
 * only the host console makes (docs/runtime-api.md).
 *
 * - `create <name>` prints the new credential alone on stdout, shown this once
 *   (`HUB_RUNTIME_CREDENTIAL=$(hub runtime-credential create runtime-1)`), what it is on stderr;
 * - `list` prints one credential a line: id, prefix, created, live or revoked, name;
 * - `revoke <id|name>` ends it at once.
 */
export async function runtimeCredentialCommand(
  args: string[],
  withRuntime: (work: (runtime: Runtime) => Promise<void>) => Promise<void>,
  io: Io,
): Promise<void> {
  const [sub, ...rest] = args;
  if (!SUBCOMMANDS.includes(sub ?? '')) {
    throw new UsageError(`unknown subcommand "runtime-credential ${sub ?? ''}"; expected ${SUBCOMMANDS.join(', ')}`);
  }
  try {
    if (sub === 'create') {
      const [name] = parseCommandArgs(rest, {}, 1, '<name>').positionals as [string];
      if (!NAME.test(name)) throw new UsageError(`name "${name}": letters, digits, ".", "_" and "-", at most 200`);
      await withRuntime(async (runtime) => {
        const { record, secret } = await runtime.runtimeCredentials.create(name);
        io.stderr.write(`created runtime credential ${record.prefix}… (${record.id}) "${name}"; it is shown once\n`);
        io.stdout.write(`${secret}\n`);
      });
    } else if (sub === 'list') {
      parseCommandArgs(rest, {}, 0);
      await withRuntime(async (runtime) => {
        for (const c of await runtime.runtimeCredentials.list()) {
          const state = c.revoked_at ? `revoked ${c.revoked_at}` : 'live';
          io.stdout.write(`${c.id}\t${c.prefix}…\t${c.created_at}\t${state}\t${c.name}\n`);
        }
      });
    } else {
      const [idOrName] = parseCommandArgs(rest, {}, 1, '<id|name>').positionals as [string];
      await withRuntime(async (runtime) => {
        const revoked = await runtime.runtimeCredentials.revoke(idOrName);
        io.stdout.write(`revoked runtime credential ${revoked.prefix}… (${revoked.id}) "${revoked.name}"\n`);
      });
    }
  } catch (err) {
    if (err instanceof RuntimeCredentialError) throw new UsageError(err.message);
    throw err;
  }
}
