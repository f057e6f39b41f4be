import { parseCommandArgs } from '../cli/args.js';
import type { Output, WithRuntime } from '../cli/command.js';
import { loginUrl } from '../cli/runtime.js';
import { serverBaseUrl } from '../cli/server-record.js';

/**
 * `hub login-link <imOpenId> [--break-glass]`: a one-time login URL for the user, for a host
 * without sign-in providers, a demo, or (`--break-glass`) a person locked out of the sign-in their
 * company requires; a break-glass link is recorded in the audit log of each of their organizations.
 */
export async function loginLinkCommand(
  args: string[],
  withRuntime: WithRuntime,
  io: { stdout: Output },
): Promise<void> {
  const { positionals, values } = parseCommandArgs(args, { 'break-glass': { type: 'boolean' } }, 1);
  await withRuntime(async (runtime) => {
    const link = await runtime.sessions.issueLoginLink(positionals[0]!, { breakGlass: values['break-glass'] === true });
    // The base URL the server on this data directory serves under, not this shell's PORT.
    io.stdout.write(`${loginUrl(serverBaseUrl(runtime.config), link.token)}\n`);
  });
}
