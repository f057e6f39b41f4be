import { expiresFlag, scopesFlag } from '../api-tokens/command.js';
import { parseCommandArgs, requiredFlag } from '../cli/args.js';
import { organizationNamed } from '../cli/command.js';
import type { Runtime } from '../cli/runtime.js';
import { UsageError } from '../cli/usage-error.js';
import { ApiError } from '../errors/api-error.js';

type Io = { stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown } };

const SUBCOMMANDS = ['create', 'list', 'token'];

/**
 * `hub service-account create|list|token`: the operator's side of service accounts, where a
 * platform runtime's first credential is made (no person need sign in for it).
 *
 * - `create <org> <name> [--role MEMBER|ADMIN] [--description D]` prints the new account's id;
 * - `list <org>` prints one account a line: id, role, enabled or disabled, name;
 * - `token <org> <name> --name N --scopes a,b [--expires 30d]` prints a new token of the account
 *   alone on stdout (`TOKEN=$(hub service-account token …)`), what it is on stderr.
 */
export async function serviceAccountCommand(
  args: string[],
  withRuntime: (work: (runtime: Runtime) => Promise<void>) => Promise<void>,
  io: Io,
): Promise<void> {
  const [sub, ...rest] = args;
  if (!SUBCOMMANDS.includes(sub ?? '')) {
    throw new UsageError(`unknown subcommand "service-account ${sub ?? ''}"; expected ${SUBCOMMANDS.join(', ')}`);
  }
  try {
    if (sub === 'create') await create(rest, withRuntime, io);
    else if (sub === 'list') await list(rest, withRuntime, io);
    else await token(rest, withRuntime, io);
  } catch (err) {
    if (err instanceof ApiError) throw new UsageError(err.message);
    throw err;
  }
}

async function create(
  args: string[],
  withRuntime: (work: (runtime: Runtime) => Promise<void>) => Promise<void>,
  io: Io,
) {
  const { values, positionals } = parseCommandArgs(
    args,
    { role: { type: 'string' }, description: { type: 'string' } },
    2,
    '<org> <name>',
  );
  const [orgSlug, name] = positionals as [string, string];
  const role = values.role ?? 'MEMBER';
  if (role !== 'MEMBER' && role !== 'ADMIN')
    throw new UsageError(`--role "${role}": a service account is MEMBER or ADMIN`);
  await withRuntime(async (runtime) => {
    const org = await organizationNamed(runtime, orgSlug);
    const account = await runtime.serviceAccounts.create(
      { organizationId: org.id, userId: null },
      { name, description: values.description ?? null, role },
    );
    io.stderr.write(`created service account "${account.name}" (${account.role}) in ${orgSlug}\n`);
    io.stdout.write(`${account.id}\n`);
  });
}

async function list(args: string[], withRuntime: (work: (runtime: Runtime) => Promise<void>) => Promise<void>, io: Io) {
  const [orgSlug] = parseCommandArgs(args, {}, 1, '<org>').positionals as [string];
  await withRuntime(async (runtime) => {
    const org = await organizationNamed(runtime, orgSlug);
    const accounts = await runtime.serviceAccounts.list(org.id);
    accounts.sort((a, b) => a.name.localeCompare(b.name));
    for (const account of accounts) {
      const state = account.disabled_at === null ? 'enabled' : 'disabled';
      io.stdout.write(`${account.id}\t${account.role}\t${state}\t${account.name}\n`);
    }
  });
}

async function token(
  args: string[],
  withRuntime: (work: (runtime: Runtime) => Promise<void>) => Promise<void>,
  io: Io,
) {
  const { values, positionals } = parseCommandArgs(
    args,
    { name: { type: 'string' }, scopes: { type: 'string' }, expires: { type: 'string' } },
    2,
    '<org> <service-account-name>',
  );
  const [orgSlug, accountName] = positionals as [string, string];
  const name = requiredFlag(values.name, '--name');
  const scopes = scopesFlag(values.scopes);
  await withRuntime(async (runtime) => {
    const expiresAt = expiresFlag(values.expires, runtime);
    const org = await organizationNamed(runtime, orgSlug);
    const account = await runtime.serviceAccounts.findByName(org.id, accountName);
    if (!account) throw new UsageError(`no service account "${accountName}" in ${orgSlug}`);
    const { record, token: text } = await runtime.apiTokens.create(
      { organizationId: org.id, userId: null, isOrgAdmin: true },
      { name, scopes, expiresAt, serviceAccountId: account.id },
    );
    const until = record.expires_at ? `until ${record.expires_at}` : 'until revoked';
    const what = `API token ${record.prefix}… (${record.id}) for service account "${account.name}"`;
    io.stderr.write(`created ${what} in ${orgSlug}, ${until}\n`);
    io.stdout.write(`${text}\n`);
  });
}
