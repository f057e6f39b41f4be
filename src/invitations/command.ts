import { parseCommandArgs, requiredFlag } from '../cli/args.js';
import type { Runtime } from '../cli/runtime.js';
import { serverBaseUrl } from '../cli/server-record.js';
import { UsageError } from '../cli/usage-error.js';
import { ApiError } from '../errors/api-error.js';
import type { OrgRole } from '../orgs/store.js';
import { invitationUrl } from './operations.js';
import { DEFAULT_INVITATION_DAYS } from './service.js';

const ROLES: readonly OrgRole[] = ['OWNER', 'ADMIN', 'MEMBER'];

/** `--expires`: whole days, 1 to 30 (`7d`), as the API's `expiresInDays`. */
function expiryDays(value: string | undefined): number {
  if (value === undefined) return DEFAULT_INVITATION_DAYS;
  const days = /^([1-9][0-9]?)d$/.exec(value)?.[1];
  if (days === undefined || Number(days) > 30) throw new UsageError(`--expires takes 1d to 30d, not "${value}"`);
  return Number(days);
}

/**
 * `hub invite <org> --role R [--team T]… [--email E] [--expires 7d]`: an invitation link for set-ups
 * where no admin has signed in yet. The link goes to stdout alone, shown this once; the console
 * may invite with any role, the OWNER one included, as it creates organizations and their owners.
 */
export async function inviteCommand(
  args: string[],
  withRuntime: (work: (runtime: Runtime) => Promise<void>) => Promise<void>,
  io: { stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown } },
): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      role: { type: 'string' },
      team: { type: 'string', multiple: true },
      email: { type: 'string' },
      expires: { type: 'string' },
    },
    1,
    '<org>',
  );
  const [orgSlug] = positionals as [string];
  const role = requiredFlag(values.role, '--role') as OrgRole;
  if (!ROLES.includes(role)) throw new UsageError(`--role is one of ${ROLES.join(', ')}, not "${role}"`);
  const expiresInDays = expiryDays(values.expires);
  const email = values.email;
  if (email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError(`--email "${email}" is no address`);

  await withRuntime(async (runtime) => {
    const org = await runtime.organizations.findBySlug(orgSlug);
    if (!org) throw new UsageError(`no organization "${orgSlug}"`);
    const teamIds: string[] = [];
    for (const slug of values.team ?? []) {
      const teamId = await runtime.invitations.activeTeamId(org.id, slug);
      if (!teamId) throw new UsageError(`no active team "${slug}" in ${orgSlug}`);
      teamIds.push(teamId);
    }
    try {
      const { invitation, token } = await runtime.invitations.create(
        { organizationId: org.id, userId: null, isOwner: true },
        { role, teamIds, email, expiresInDays },
      );
      io.stderr.write(`invited to ${orgSlug} as ${role} (${invitation.id}), until ${invitation.expires_at}\n`);
      io.stdout.write(`${invitationUrl(serverBaseUrl(runtime.config), token)}\n`);
    } catch (err) {
      if (err instanceof ApiError) throw new UsageError(err.message);
      throw err;
    }
  });
}
