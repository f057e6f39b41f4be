import { parseCommandArgs, requiredFlag, timeFlag } from '../cli/args.js';
import { organizationNamed } from '../cli/command.js';
import type { Runtime } from '../cli/runtime.js';
import { UsageError } from '../cli/usage-error.js';
import { ApiError } from '../errors/api-error.js';
import { isOrgAdminRole } from '../auth/rules.js';
import { isScope, type Scope, SCOPES } from './scopes.js';

/** `--scopes a,b`: known scopes only. */
export function scopesFlag(value: string | undefined): Scope[] {
  const scopes = requiredFlag(value, '--scopes')
    .split(',')
    .map((scope) => scope.trim())
    .filter(Boolean);
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length) throw new UsageError(`unknown scope ${unknown.join(', ')}; scopes are ${SCOPES.join(', ')}`);
  return scopes.filter(isScope);
}

/** `--expires 30d|<time>`: when a token ends (none: never). */
export const expiresFlag = (value: string | undefined, runtime: Runtime): string | null =>
  value === undefined ? null : timeFlag('--expires', value, runtime.clock.now(), 'ahead', '30d or 12h,');

/**
 * `hub token create <org> <imOpenId> --name N --scopes a,b [--expires 30d]`: an API token for a
 * member, for headless set-ups that have no browser to create one in. The token goes to stdout
 * alone (so `TOKEN=$(hub token create …)` works); what it is goes to stderr.
 */
export async function tokenCommand(
  args: string[],
  withRuntime: (work: (runtime: Runtime) => Promise<void>) => Promise<void>,
  io: { stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown } },
): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw new UsageError(`unknown subcommand "token ${sub ?? ''}"; expected "token create"`);
  const { values, positionals } = parseCommandArgs(
    rest,
    { name: { type: 'string' }, scopes: { type: 'string' }, expires: { type: 'string' } },
    2,
    '<org> <imOpenId>',
  );
  const [orgSlug, imOpenId] = positionals as [string, string];
  const name = requiredFlag(values.name, '--name');
  const scopes = scopesFlag(values.scopes);

  await withRuntime(async (runtime) => {
    const expiresAt = expiresFlag(values.expires, runtime);
    const org = await organizationNamed(runtime, orgSlug);
    const user = await runtime.users.findByImOpenId(runtime.db, imOpenId);
    const access = user && (await runtime.orgAccess.resolve(user.id, orgSlug));
    if (!user || !access) throw new UsageError(`"${imOpenId}" is no active member of ${orgSlug}`);
    try {
      const { record, token } = await runtime.apiTokens.create(
        { organizationId: org.id, userId: user.id, isOrgAdmin: isOrgAdminRole(access.role) },
        { name, scopes, expiresAt },
      );
      const until = record.expires_at ? `until ${record.expires_at}` : 'until revoked';
      io.stderr.write(`created API token ${record.prefix}… (${record.id}) for ${imOpenId} in ${orgSlug}, ${until}\n`);
      io.stdout.write(`${token}\n`);
    } catch (err) {
      if (err instanceof ApiError) throw new UsageError(err.message);
      throw err;
    }
  });
}
