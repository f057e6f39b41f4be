import { parseCommandArgs } from '../cli/args.js';
import type { Output, WithRuntime } from '../cli/command.js';
import { loginUrl } from '../cli/runtime.js';
import { serverBaseUrl } from '../cli/server-record.js';

/** `hub login-link <imOpenId>`: a one-time login URL for the user, for a host without sign-in providers. */
export async function loginLinkCommand(
  args: string[],
  withRuntime: WithRuntime,
  io: { stdout: Output },
): Promise<void> {
  const { positionals } = parseCommandArgs(args, {}, 1);
  await withRuntime(async (runtime) => {
    const link = await runtime.sessions.issueLoginLink(positionals[0]!);
    // The base URL the server on this data directory serves under, not this shell's PORT.
    io.stdout.write(`${loginUrl(serverBaseUrl(runtime.config), link.token)}\n`);
  });
}
