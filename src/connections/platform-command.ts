import type { Readable } from 'node:stream';
import { parseCommandArgs } from '../cli/args.js';
import { readStdin } from '../cli/read-stdin.js';
import { UsageError } from '../cli/usage-error.js';
import type { Runtime } from '../cli/runtime.js';
import type { Config } from '../config/config.js';
import { MissingKeyError } from '../crypto/errors.js';
import { baseUrlProblem } from './base-url.js';
import type { ProviderCredentialInput } from './credentials.js';
import { PROVIDER_ID_PATTERN, type RotationOutcome } from './service.js';
import type { ProviderConnectionRecord } from './store.js';

type Secrets = Omit<ProviderCredentialInput, 'baseUrl'>;

/** The request schema's limit on each secret. */
const MAX_SECRET_LENGTH = 4096;
const MAX_STDIN_BYTES = 64 * 1024;
const ENV_TOKEN = 'HUB_PROVIDER_AUTH_TOKEN';
const ENV_VENDOR_KEY = 'HUB_PROVIDER_VENDOR_API_KEY';
const HOW =
  `set ${ENV_TOKEN} (and optionally ${ENV_VENDOR_KEY}), ` +
  'or pipe {"authToken": "…", "vendorApiKey": "…"} as JSON on stdin';

/**
 * `hub connection platform <org> <providerId> --base-url U`: creates or rotates the
 * organization's PLATFORM_MANAGED connection to the provider (taking over a BYOK one). Secrets
 * come from the environment or stdin, never from argv, which other users of the machine can
 * read. Everything is checked before anything is written; no message quotes a secret.
 */
export async function platformConnectionCommand(
  args: string[],
  withRuntime: (work: (runtime: Runtime) => Promise<void>) => Promise<void>,
  io: {
    secrets: Config['platformProvider'];
    stdin: Readable & { isTTY?: boolean };
    stdout: { write(text: string): unknown };
  },
): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'platform')
    throw new UsageError(`unknown subcommand "connection ${sub ?? ''}"; expected "connection platform"`);
  const { orgSlug, providerId, baseUrl } = parsePlatformArgs(rest);
  const secrets = await readSecrets(io.secrets, io.stdin);
  await withRuntime(async (runtime) => {
    const org = await runtime.organizations.findBySlug(orgSlug);
    if (!org) throw new UsageError(`no organization "${orgSlug}"`);
    try {
      const { connection, outcome } = await runtime.connections.rotateProvider(
        org.id,
        providerId,
        { baseUrl, ...secrets },
        'platform',
      );
      io.stdout.write(`${summary(orgSlug, connection, outcome)}\n`);
    } catch (err) {
      if (err instanceof MissingKeyError) throw new UsageError(err.message);
      throw err;
    }
  });
}

function parsePlatformArgs(args: string[]): { orgSlug: string; providerId: string; baseUrl: string } {
  // Checked before parsing: an unknown option's name is echoed by the parser, and a mistyped
  // one may be a secret.
  for (const arg of args) {
    if (arg === '--') break;
    if (arg.startsWith('-') && arg !== '--base-url' && !arg.startsWith('--base-url=')) {
      throw new UsageError(`the only option is --base-url; secrets are never taken from the command line: ${HOW}`);
    }
  }
  const parsed = parseCommandArgs(args, { 'base-url': { type: 'string' } }, 2, '<org> <providerId>');
  const [orgSlug, providerId] = parsed.positionals as [string, string];
  const baseUrl = parsed.values['base-url'];
  if (baseUrl === undefined || baseUrl.trim() === '') throw new UsageError('--base-url is required');
  if (!PROVIDER_ID_PATTERN.test(providerId))
    throw new UsageError(`providerId must match ${PROVIDER_ID_PATTERN.source}`);
  const problem = baseUrlProblem(baseUrl);
  if (problem) throw new UsageError(`--base-url ${problem}`);
  return { orgSlug, providerId, baseUrl };
}

async function readSecrets(
  fromEnvironment: Config['platformProvider'],
  stdin: Readable & { isTTY?: boolean },
): Promise<Secrets> {
  const { authToken, vendorApiKey } = fromEnvironment;
  if (authToken !== undefined) return checked({ authToken, vendorApiKey }, ENV_TOKEN, ENV_VENDOR_KEY);
  if (vendorApiKey !== undefined) throw new UsageError(`${ENV_VENDOR_KEY} is set but ${ENV_TOKEN} is not`);
  // Typing a secret into a terminal echoes it; a pipe or a file is the way in.
  if (stdin.isTTY) throw new UsageError(`no credentials given: ${HOW}`);
  const text = await readStdin(stdin, MAX_STDIN_BYTES);
  if (text.trim() === '') throw new UsageError(`no credentials given: ${HOW}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The parser's own message quotes the input.
    throw new UsageError('stdin is not valid JSON; expected {"authToken": "…", "vendorApiKey": "…"}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError('stdin must hold a JSON object {"authToken": "…", "vendorApiKey": "…"}');
  }
  const fields = parsed as Record<string, unknown>;
  if (Object.keys(fields).some((key) => key !== 'authToken' && key !== 'vendorApiKey')) {
    throw new UsageError('the JSON on stdin may hold only authToken and vendorApiKey');
  }
  if (typeof fields.authToken !== 'string') throw new UsageError('the JSON on stdin needs authToken as a string');
  if (fields.vendorApiKey !== undefined && typeof fields.vendorApiKey !== 'string') {
    throw new UsageError('vendorApiKey on stdin must be a string');
  }
  return checked({ authToken: fields.authToken, vendorApiKey: fields.vendorApiKey }, 'authToken', 'vendorApiKey');
}

function checked(
  secrets: { authToken: string; vendorApiKey: string | undefined },
  tokenName: string,
  vendorName: string,
): Secrets {
  const tooLong = (value: string) => value.length > MAX_SECRET_LENGTH;
  if (secrets.authToken === '' || tooLong(secrets.authToken))
    throw new UsageError(`${tokenName} must be 1 to ${MAX_SECRET_LENGTH} characters`);
  if (secrets.vendorApiKey === undefined) return { authToken: secrets.authToken };
  if (secrets.vendorApiKey === '' || tooLong(secrets.vendorApiKey))
    throw new UsageError(`${vendorName} must be 1 to ${MAX_SECRET_LENGTH} characters`);
  return { authToken: secrets.authToken, vendorApiKey: secrets.vendorApiKey };
}

function summary(orgSlug: string, c: ProviderConnectionRecord, outcome: RotationOutcome): string {
  const did = { created: 'created', rotated: 'rotated', taken_over: 'took over (was BYOK)' }[outcome];
  return (
    `${did} platform-managed connection ${c.provider_id} of ${orgSlug}: ` +
    `version ${c.active_version} active, sealed with key ${c.key_id}`
  );
}
