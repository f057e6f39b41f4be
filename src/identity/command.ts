import type { Readable } from 'node:stream';
import { parseCommandArgs } from '../cli/args.js';
import { readStdin } from '../cli/read-stdin.js';
import type { Runtime } from '../cli/runtime.js';
import { serverBaseUrl } from '../cli/server-record.js';
import { UsageError } from '../cli/usage-error.js';
import { CredentialError } from '../crypto/errors.js';
import { ProviderCheckFailed } from './protocol.js';
import {
  checkClientSecret,
  checkProviderSettings,
  InvalidProviderSettings,
  type ProviderSettings,
} from './provider-settings.js';
import type { IdentityProvider } from './provider-store.js';
import { LinkingAuthorityHeld, ProviderOfOrganization } from './providers.js';

const ENV_SECRET = 'HUB_IDP_CLIENT_SECRET';
const MAX_STDIN_BYTES = 64 * 1024;
const SET_FLAGS = {
  kind: { type: 'string' },
  label: { type: 'string' },
  issuer: { type: 'string' },
  'base-url': { type: 'string' },
  'client-id': { type: 'string' },
  'subject-claim': { type: 'string' },
  'token-auth': { type: 'string' },
  'allowed-tenants': { type: 'string' },
  'email-domains': { type: 'string' },
  /** The old name of --email-domains, still accepted. */
  'allowed-email-domains': { type: 'string' },
  'links-im-open-id': { type: 'boolean' },
} as const;

export interface IdentityProviderCommandIo {
  /** HUB_IDP_CLIENT_SECRET, when set. */
  secret: string | undefined;
  /** HUB_OUTBOUND_ALLOW_PRIVATE=1: http issuers and base URLs are accepted. */
  allowHttp: boolean;
  stdin: Readable & { isTTY?: boolean };
  stdout: { write(text: string): unknown };
}

/**
 * `hub identity-provider set|list|disable`. `set` checks every flag, reads the client secret
 * (HUB_IDP_CLIENT_SECRET, else one line on stdin; never argv, which other users of the machine
 * can read), checks that the provider answers as its kind must, and only then seals and stores
 * it. No output or message ever holds the secret.
 */
export async function identityProviderCommand(
  args: string[],
  withRuntime: (work: (runtime: Runtime) => Promise<void>) => Promise<void>,
  io: IdentityProviderCommandIo,
): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'set') return setProvider(rest, withRuntime, io);
  if (sub === 'list') {
    parseCommandArgs(rest, {}, 0);
    return withRuntime(async (runtime) => {
      for (const provider of await runtime.identityProviders.list()) io.stdout.write(`${listLine(provider)}\n`);
    });
  }
  if (sub === 'disable') {
    const [id] = parseCommandArgs(rest, {}, 1, '<id>').positionals as [string];
    return withRuntime(async (runtime) => {
      if (!(await runtime.identityProviders.disable(id))) throw new UsageError(`no enabled identity provider "${id}"`);
      io.stdout.write(`disabled identity provider ${id}: no sign-in starts or finishes through it\n`);
    });
  }
  throw new UsageError(
    `unknown subcommand "identity-provider ${sub ?? ''}"; expected "identity-provider set", "list" or "disable"`,
  );
}

async function setProvider(
  args: string[],
  withRuntime: (work: (runtime: Runtime) => Promise<void>) => Promise<void>,
  io: IdentityProviderCommandIo,
): Promise<void> {
  const settings = parseSetArgs(args, io.allowHttp);
  const clientSecret = await readSecret(io);
  await withRuntime(async (runtime) => {
    try {
      const { provider, created } = await runtime.identityProviders.set(settings, clientSecret);
      const callback = `${serverBaseUrl(runtime.config)}/auth/${provider.id}/callback`;
      io.stdout.write(
        `${created ? 'created' : 'updated'} identity provider ${provider.id} ` +
          `(${provider.kind}, "${provider.label}"), ` +
          `enabled; client secret sealed with key ${provider.keyId}; redirect URI to register: ${callback}\n`,
      );
      io.stdout.write(`${linkingLine(provider)}\n`);
    } catch (err) {
      if (err instanceof ProviderCheckFailed) throw new UsageError(`${flagOf(settings)}: ${err.message}`);
      if (
        err instanceof CredentialError ||
        err instanceof LinkingAuthorityHeld ||
        err instanceof ProviderOfOrganization
      ) {
        throw new UsageError(err.message);
      }
      throw err;
    }
  });
}

const flagOf = (settings: ProviderSettings) => (settings.kind === 'oidc' ? '--issuer' : '--base-url');

function parseSetArgs(args: string[], allowHttp: boolean): ProviderSettings {
  // Checked before parsing: the parser echoes an unknown option, and a mistyped one may be a secret.
  for (const arg of args) {
    if (arg === '--') break;
    const name = arg.startsWith('--') ? arg.slice(2).split('=', 1)[0]! : undefined;
    if (arg.startsWith('-') && !(name && name in SET_FLAGS)) {
      throw new UsageError(
        `unknown option; the options are ${Object.keys(SET_FLAGS)
          .map((f) => `--${f}`)
          .join(', ')} (the client secret comes from ${ENV_SECRET} or stdin, never the command line)`,
      );
    }
  }
  const { values, positionals } = parseCommandArgs(args, SET_FLAGS, 1, '<id>');
  if (values['email-domains'] !== undefined && values['allowed-email-domains'] !== undefined) {
    throw new UsageError('give --email-domains once (--allowed-email-domains is its old name)');
  }
  try {
    return checkProviderSettings(
      {
        id: positionals[0]!,
        kind: values.kind,
        label: values.label,
        issuer: values.issuer,
        baseUrl: values['base-url'],
        clientId: values['client-id'],
        subjectClaim: values['subject-claim'],
        tokenAuth: values['token-auth'],
        allowedTenants: values['allowed-tenants'],
        allowedEmailDomains: values['email-domains'] ?? values['allowed-email-domains'],
        linksImOpenId: values['links-im-open-id'],
      },
      allowHttp,
    );
  } catch (err) {
    if (err instanceof InvalidProviderSettings) throw new UsageError(err.message);
    throw err;
  }
}

async function readSecret(io: IdentityProviderCommandIo): Promise<string> {
  try {
    if (io.secret !== undefined) return checkClientSecret(io.secret, ENV_SECRET);
    // Typing a secret into a terminal echoes it; a pipe or a file is the way in.
    if (io.stdin.isTTY) throw new UsageError(`no client secret given: set ${ENV_SECRET} or pipe it on stdin`);
    const text = await readStdin(io.stdin, MAX_STDIN_BYTES);
    if (text.trim() === '') throw new UsageError(`no client secret given: set ${ENV_SECRET} or pipe it on stdin`);
    return checkClientSecret(text, 'stdin');
  } catch (err) {
    if (err instanceof InvalidProviderSettings) throw new UsageError(err.message);
    throw err;
  }
}

/** One provider per line, tab-separated; the secret appears only as the key it is sealed with. */
function listLine(p: IdentityProvider): string {
  return [
    p.id,
    p.kind,
    p.disabledAt ? 'disabled' : 'enabled',
    p.label,
    p.endpoint,
    `client-id=${p.clientId}`,
    `subject=${p.subjectClaim}`,
    `tenants=${p.allowedTenants.join(',') || '*'}`,
    `email-domains=${p.allowedEmailDomains.join(',') || '*'}`,
    `links-im-open-id=${p.linksImOpenId ? 'yes' : 'no'}`,
    `secret-key=${p.keyId}`,
  ].join('\t');
}

/** What a first sign-in through the provider does, so `set` without the flag is never a surprise. */
function linkingLine(p: IdentityProvider): string {
  if (p.linksImOpenId) return `a first sign-in through ${p.id} joins the member added with that imOpenId`;
  const hint = p.kind === 'lark' ? ' (add --links-im-open-id to link them to members added by open_id)' : '';
  return `a first sign-in through ${p.id} makes a new user${hint}`;
}
