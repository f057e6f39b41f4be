import { createRequire } from 'node:module';
import { parseCommandArgs } from './args.js';
import { ConfigError } from '../config/config-error.js';
import { loadConfig, type Config } from '../config/config.js';
import { ApiError } from '../errors/api-error.js';
import { withoutStatement } from '../log/logger.js';
import { openRuntime, type Runtime } from './runtime.js';
import { StartupError } from './startup-error.js';
import { projectCommand } from '../projects/command.js';
import { platformConnectionCommand } from '../connections/platform-command.js';
import { usageCommand } from '../usage/command.js';
import { skillCommand } from '../skills/command.js';
import { capacityCommand } from '../capacity/command.js';
import { migrateCommand } from '../db/command.js';
import { orgCommand } from '../orgs/command.js';
import { loginLinkCommand } from '../session/command.js';
import { serve } from './serve.js';
import { tokenCommand } from '../api-tokens/command.js';
import { auditCommand } from '../audit/command.js';
import { budgetCommand } from '../budgets/command.js';
import { inviteCommand } from '../invitations/command.js';
import { CONSOLE_ACTOR, PLATFORM_ACTOR, type AuditScope, withAuditScope } from '../audit/scope.js';
import { UsageError } from './usage-error.js';
import { environmentFault } from '../errors/environment-fault.js';
import { identityProviderCommand } from '../identity/command.js';
import { domainCommand } from '../domains/command.js';
import { serviceAccountCommand } from '../service-accounts/command.js';
import { runtimeCredentialCommand } from '../runtime/command.js';

const USAGE = `Usage: hub <command>

Commands:
  serve [--demo]                           migrate, then serve HTTP on HOST:PORT (the demo organization is seeded on
                                           an empty database with the SQLite default, or with --demo)
  migrate                                  apply pending database migrations
  org create <slug> --name N --owner <imOpenId> [--owner-name D] [--avatar-url https://…]
                                           create an organization and its first OWNER (the avatar is the owner's)
  org create <slug> --name N --owner-email E --provider P
                                           create an organization waiting for its owner: the first sign-in through
                                           the operator's provider P with the verified address E (its domain verified
                                           for the organization, P vouching for it) becomes OWNER, audited
  org list                                 print every organization, one per line: slug, id, status, name, and the
                                           owner it is waiting for
  org purge <org> --confirm <org>          remove an organization being deleted, every row and file of it, now
                                           rather than at its purgeAt (recorded in the host's audit log)
  login-link <imOpenId> [--break-glass]    print a one-time login URL (valid 15 minutes; --break-glass passes a
                                           domain's required sign-in and HUB_LOGIN_LINKS=break-glass, audited)
  usage ingest <file.jsonl> --org <slug>   load agent runs, one JSON object per line (all or nothing)
  usage rebuild-rollups <org>              recompute the organization's usage rollups from its raw runs
  project bind <org> <projectId> <chatId>  bind a chat to a project (replacing the project's previous chat)
  project force-release <org> <projectId> --manager <imOpenId|team-slug>
                                           give MANAGE on a project to a member or an active team, whatever
                                           grants exist (the one override of the organization's roles; audited as
                                           the platform admin)
  connection platform <org> <providerId> --base-url U
                                           create or rotate a PLATFORM_MANAGED provider connection; the token comes
                                           from HUB_PROVIDER_AUTH_TOKEN [+ HUB_PROVIDER_VENDOR_API_KEY] or stdin JSON
                                           {authToken, vendorApiKey?}, never from the command line
  capacity clear <org> <dimension>         lift the organization's own limit of a capacity dimension
                                           (its effective limit becomes the platform ceiling)
  skill install <dir> --org <slug> [--name N] [--version V]
                                           install or replace a skill from a directory (name: the directory's
                                           name; version: the front matter's, else 0.0.0), like PUT /agent-skills/{name}
  token create <org> <imOpenId> --name N --scopes a,b [--expires 30d]
                                           create an API token for a member (printed alone on stdout, shown once;
                                           scopes like members:read, teams:write; --expires: a duration or a time)
  service-account create <org> <name> [--role MEMBER|ADMIN] [--description D]
                                           create a service account (an identity the organization owns, for
                                           integrations and runtimes; prints its id)
  service-account list <org>               print the service accounts, one per line: id, role, state, name
  service-account token <org> <name> --name N --scopes a,b [--expires 30d]
                                           create an API token for a service account (printed alone on stdout,
                                           shown once)
  runtime-credential create <name>         create a platform runtime credential for the host's agent runtime
                                           (hubr_…, printed alone on stdout, shown once; resolves connection
                                           credentials of every organization over HTTP; in the host's log)
  runtime-credential list                  print the runtime credentials, one per line: id, prefix, created,
                                           state, name (never a secret)
  runtime-credential revoke <id|name>      end a runtime credential at once
  identity-provider set <id> --kind oidc|lark --label L (--issuer U | --base-url U) --client-id X
                                           [--subject-claim C] [--token-auth client_secret_post]
                                           [--allowed-tenants k1,k2] [--email-domains d1,d2]
                                           [--links-im-open-id] (its first sign-ins join members by imOpenId;
                                           one enabled provider at most)
                                           create or replace a sign-in provider and enable it; the client secret
                                           comes from HUB_IDP_CLIENT_SECRET or one line on stdin, never the command
                                           line (lark: --allowed-tenants required, --base-url default open.feishu.cn)
  identity-provider list                   print the sign-in providers, one per line (never a secret)
  identity-provider disable <id>           stop sign-ins through a provider
  invite <org> --role R [--team T]… [--email E] [--expires 7d]
                                           print an invitation link (shown once; --team: a team slug, repeatable;
                                           --email: only that verified address may accept; --expires: 1d to 30d)
  audit <org> [--since 7d|<time>] [--limit N] [--json]
                                           print the organization's audit events, newest first (--json: one
                                           JSON object per line)
  budget list <org>                        print each budget with its status in the current period
  domain verify <org> <domain>             verify a domain for an organization without DNS (audited; refused when
                                           another organization has it verified)

Options: hub --version, hub <command> --help.

Configuration comes from the environment: HOST, PORT, HUB_DATA_DIR, DATABASE_URL, HUB_BASE_URL,
HUB_MASTER_KEYS, HUB_ACTIVE_KEY_ID, LOG_LEVEL, HUB_SHUTDOWN_GRACE_MS, HUB_TRUSTED_PROXIES,
HUB_OUTBOUND_ALLOW_PRIVATE, HUB_SIGNIN_RATE, HUB_AUTH_FAILURE_RATE, HUB_HEADERS_TIMEOUT_MS,
HUB_REQUEST_TIMEOUT_MS, HUB_KEEP_ALIVE_TIMEOUT_MS, HUB_MAX_CONNECTIONS, HUB_DNS_SERVERS, HUB_LOGIN_LINKS
(see .env.example).`;

/** `hub <command> --help`: the command's lines of the usage. */
function commandHelp(name: string): string | undefined {
  const lines = USAGE.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`  ${name} `) || line === `  ${name}`);
  if (start === -1) return undefined;
  let end = start + 1;
  while (end < lines.length && /^ {20,}\S/.test(lines[end]!)) end += 1;
  const [synopsis, ...rest] = lines.slice(start, end).map((line) => line.trim());
  const [usage, ...description] = synopsis!.split(/\s{2,}/);
  return `Usage: hub ${usage}\n\n  ${[...description, ...rest].join('\n  ')}`;
}

function packageVersion(): string {
  return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
}

type Command = (args: string[]) => Promise<void>;

const commands: Record<string, Command> = {
  serve: async (args) => {
    const { values } = parseCommandArgs(args, { demo: { type: 'boolean' } }, 0);
    await serve({ demo: values.demo === true });
  },

  migrate: (args) =>
    migrateCommand(args, (work) => withRuntime(work, undefined, { create: true }), { stdout: process.stdout }),

  org: (args) => orgCommand(args, withRuntime, { stdout: process.stdout }),

  project: (args) => projectCommand(args, withRuntime, { stdout: process.stdout }),

  usage: (args) => usageCommand(args, withRuntime, { stdout: process.stdout, stderr: process.stderr }),

  'login-link': (args) => loginLinkCommand(args, withRuntime, { stdout: process.stdout }),

  connection: (args) => {
    const config = loadConfig();
    const io = { secrets: config.platformProvider, stdin: process.stdin, stdout: process.stdout };
    return platformConnectionCommand(args, (work) => withRuntime(work, config), io);
  },

  skill: (args) => skillCommand(args, withRuntime, { stdout: process.stdout }),

  token: (args) => tokenCommand(args, withRuntime, { stdout: process.stdout, stderr: process.stderr }),

  'service-account': (args) =>
    serviceAccountCommand(args, withRuntime, { stdout: process.stdout, stderr: process.stderr }),

  'runtime-credential': (args) =>
    runtimeCredentialCommand(args, withRuntime, { stdout: process.stdout, stderr: process.stderr }),

  audit: (args) => auditCommand(args, withRuntime, { stdout: process.stdout }),

  budget: (args) => budgetCommand(args, withRuntime, { stdout: process.stdout }),

  domain: (args) => domainCommand(args, withRuntime, { stdout: process.stdout }),

  invite: (args) => inviteCommand(args, withRuntime, { stdout: process.stdout, stderr: process.stderr }),

  'identity-provider': (args) => {
    const config = loadConfig();
    const io = {
      secret: config.identityProviderSecret,
      allowHttp: config.outboundAllowPrivate,
      stdin: process.stdin,
      stdout: process.stdout,
    };
    return identityProviderCommand(args, (work) => withRuntime(work, config), io);
  },

  capacity: (args) => capacityCommand(args, withRuntime, { stdout: process.stdout }),
};

/** Commands that take a subcommand: their audit action names both (`hub.org.create`). */
const WITH_SUBCOMMAND = new Set([
  'org',
  'project',
  'usage',
  'connection',
  'skill',
  'capacity',
  'token',
  'budget',
  'domain',
  'service-account',
  'runtime-credential',
]);

/**
 * Console commands recorded otherwise than as the console's: force-release overrides the
 * organization's roles, so its events name the platform admin, as the one override outside them.
 */
const RECORDED_AS: Record<string, Pick<AuditScope, 'actor' | 'action'>> = {
  'hub.project.force-release': { actor: PLATFORM_ACTOR, action: 'hub.project.force_release' },
};

function consoleScope(name: string, args: string[]): AuditScope {
  const sub = WITH_SUBCOMMAND.has(name) && args[0] && /^[a-z-]+$/.test(args[0]) ? `.${args[0]}` : '';
  const action = `hub.${name}${sub}`;
  return { actor: CONSOLE_ACTOR, action, ...RECORDED_AS[action], requestId: null, at: new Date() };
}

/** Opens the database for one command; only `migrate` (and `serve`) may create it. */
async function withRuntime(
  work: (runtime: Runtime) => Promise<void>,
  config?: Config,
  options: { create?: boolean } = {},
): Promise<void> {
  const runtime = await openRuntime({ config, create: options.create });
  try {
    await work(runtime);
  } finally {
    await runtime.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    process.stdout.write(`hub ${packageVersion()}\n`);
    return 0;
  }
  if (name !== undefined && (args.includes('--help') || args.includes('-h'))) {
    const help = commandHelp(name);
    if (help) {
      process.stdout.write(`${help}\n`);
      return 0;
    }
  }
  if (name === undefined) {
    process.stderr.write(`hub: a command is required; run "hub help"\n`);
    return 2;
  }
  const command = commands[name];
  try {
    if (!command) throw new UsageError(`unknown command "${name}"; run "hub help"`);
    // What a console command changes in an organization is recorded as done by the console.
    if (name === 'serve') await command(args);
    else await withAuditScope(consoleScope(name, args), () => command(args));
    return 0;
  } catch (err) {
    // Bad input of any kind: one line naming what is wrong, exit 2.
    if (err instanceof UsageError || err instanceof ConfigError || err instanceof ApiError) {
      process.stderr.write(`hub ${name}: ${err.message}\n`);
      return 2;
    }
    // The environment is wrong (a port in use, a database that does not answer, a full disk): one
    // line, exit 1. Commands write in one transaction, so nothing of theirs was written.
    const fault = err instanceof StartupError ? err : environmentFault(err);
    if (fault) {
      process.stderr.write(`hub ${name}: ${fault.message}\n`);
      return 1;
    }
    const message = err instanceof Error ? withoutStatement(err.message) : String(err);
    process.stderr.write(`hub ${name}: unexpected failure: ${message}\n`);
    return 1;
  }
}
