import { SLUG_PATTERN } from '../shared/slug.js';
import { isName, isStorableText } from '../shared/text.js';
import { endpointUrlProblem } from './endpoint-url.js';
import { LARK_DEFAULT_BASE_URL } from './lark.js';
import { PROVIDER_KINDS, type ProviderSettings, TOKEN_AUTH_METHODS, type TokenAuthMethod } from './provider-store.js';

/** A provider's settings, checked; what `set` stores beside the sealed secret. */
export type { ProviderSettings };

/** What the operator typed (`hub identity-provider set`), before any check. */
export interface ProviderSettingsInput {
  id: string;
  kind: string | undefined;
  label: string | undefined;
  issuer: string | undefined;
  baseUrl: string | undefined;
  clientId: string | undefined;
  subjectClaim: string | undefined;
  tokenAuth: string | undefined;
  allowedTenants: string | undefined;
  allowedEmailDomains: string | undefined;
  /** `--links-im-open-id`: this provider speaks for the imOpenId namespace. */
  linksImOpenId?: boolean | undefined;
}

/** A setting refused, with a one-line message naming the flag. */
export class InvalidProviderSettings extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidProviderSettings';
  }
}

const MAX_SECRET_LENGTH = 4096;
const MAX_CLIENT_ID_LENGTH = 512;
/** A tenant id as providers give them (lark `tenant_key`, oidc `tid`). */
export const TENANT_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
/** A bare, lower-case domain name: no wildcard, no `@`, no trailing dot. */
export const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CLAIM_PATTERN = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;

const refuse = (message: string): never => {
  throw new InvalidProviderSettings(message);
};

/**
 * The settings of `set`, checked as a whole before anything is written: the kind decides which of
 * `--issuer` (oidc) and `--base-url` (lark) applies, and the flags that make no sense for it are
 * refused rather than silently ignored. A lark provider must name its tenants: its allow-list fails
 * closed, as any account of any tenant could otherwise sign in.
 */
export function checkProviderSettings(input: ProviderSettingsInput, allowHttp: boolean): ProviderSettings {
  if (!SLUG_PATTERN.test(input.id)) refuse(`the provider id must match ${SLUG_PATTERN.source}`);
  const kind = input.kind;
  if (kind === undefined) return refuse(`--kind is required (${PROVIDER_KINDS.join(' or ')})`);
  if (!(PROVIDER_KINDS as readonly string[]).includes(kind)) {
    return refuse(`--kind must be ${PROVIDER_KINDS.join(' or ')}, got "${kind}"`);
  }
  const label = input.label?.trim();
  if (!label || !isName(label) || label.length > 200) refuse('--label is required: one line of at most 200 characters');
  const clientId = input.clientId;
  if (!clientId || !isName(clientId) || clientId.length > MAX_CLIENT_ID_LENGTH) {
    refuse(`--client-id is required: one line of at most ${MAX_CLIENT_ID_LENGTH} characters`);
  }
  const allowedTenants = list(input.allowedTenants, '--allowed-tenants', (t) => TENANT_PATTERN.test(t), 'a tenant id');
  const allowedEmailDomains = list(
    input.allowedEmailDomains?.toLowerCase(),
    '--email-domains',
    (d) => DOMAIN_PATTERN.test(d),
    'a domain name',
  );
  const common = {
    id: input.id,
    label: label!,
    clientId: clientId!,
    allowedTenants,
    allowedEmailDomains,
    linksImOpenId: input.linksImOpenId === true,
  };
  return kind === 'oidc' ? oidcSettings(input, common, allowHttp) : larkSettings(input, common, allowHttp);
}

type Common = Pick<
  ProviderSettings,
  'id' | 'label' | 'clientId' | 'allowedTenants' | 'allowedEmailDomains' | 'linksImOpenId'
>;

function oidcSettings(input: ProviderSettingsInput, common: Common, allowHttp: boolean): ProviderSettings {
  if (input.baseUrl !== undefined) refuse('--base-url is for --kind lark; an oidc provider takes --issuer');
  const issuer = input.issuer ?? refuse('--issuer is required for --kind oidc');
  const problem = endpointUrlProblem(issuer, allowHttp);
  if (problem) refuse(`--issuer ${problem}`);
  const subjectClaim = input.subjectClaim ?? 'sub';
  if (!CLAIM_PATTERN.test(subjectClaim)) refuse('--subject-claim must be a claim name such as sub or oid');
  const tokenAuth = input.tokenAuth ?? 'client_secret_basic';
  if (!(TOKEN_AUTH_METHODS as readonly string[]).includes(tokenAuth)) {
    refuse(`--token-auth must be ${TOKEN_AUTH_METHODS.join(' or ')}`);
  }
  return { ...common, kind: 'oidc', endpoint: issuer, subjectClaim, tokenAuth: tokenAuth as TokenAuthMethod };
}

function larkSettings(input: ProviderSettingsInput, common: Common, allowHttp: boolean): ProviderSettings {
  if (input.issuer !== undefined) refuse('--issuer is for --kind oidc; a lark provider takes --base-url');
  if (input.subjectClaim !== undefined) refuse('--subject-claim is for --kind oidc; lark identifies by open_id');
  if (input.tokenAuth !== undefined) refuse('--token-auth is for --kind oidc; lark sends its secret in a JSON body');
  if (common.allowedEmailDomains.length) {
    refuse('--email-domains is for --kind oidc; the platform does not say whether an email is verified');
  }
  if (common.allowedTenants.length === 0) refuse('--allowed-tenants is required for --kind lark (tenant keys)');
  const endpoint = (input.baseUrl ?? LARK_DEFAULT_BASE_URL).replace(/\/$/, '');
  const problem = endpointUrlProblem(endpoint, allowHttp);
  if (problem) refuse(`--base-url ${problem}`);
  return { ...common, kind: 'lark', endpoint, subjectClaim: 'open_id', tokenAuth: 'client_secret_post' };
}

function list(raw: string | undefined, flag: string, valid: (item: string) => boolean, what: string): string[] {
  if (raw === undefined) return [];
  const items = raw.split(',').map((item) => item.trim());
  if (items.some((item) => !valid(item))) refuse(`${flag} must be a comma-separated list, each ${what}`);
  return [...new Set(items)];
}

/** The client secret as given on stdin or in HUB_IDP_CLIENT_SECRET: one line, never quoted back. */
export function checkClientSecret(raw: string, source: string): string {
  const secret = raw.replace(/\r?\n$/, '');
  if (secret === '' || secret.length > MAX_SECRET_LENGTH || !isName(secret) || !isStorableText(secret)) {
    refuse(`the client secret (${source}) must be one line of 1 to ${MAX_SECRET_LENGTH} characters`);
  }
  return secret;
}
