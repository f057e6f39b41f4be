import type { Config } from '../../src/config/config.js';
import { checkProviderSettings, type ProviderSettingsInput } from '../../src/identity/provider-settings.js';
import { TEST_ORIGIN, TestHub } from './test-hub.js';
import { TestOpenIdProvider } from './openid-provider.js';
import { locationOf, TestBrowser } from './test-browser.js';

/** A hub that may reach identity providers on loopback over http, as the sign-in tests need. */
export function signInHub(config: Partial<Config> = {}): Promise<TestHub> {
  return TestHub.start({ config: { outboundAllowPrivate: true, ...config } });
}

/** A fresh browser (an empty cookie jar) that reaches the hub at the origin it believes it has. */
export const testBrowser = (hub: TestHub): TestBrowser => new TestBrowser({ [TEST_ORIGIN]: hub.url });

/** Rows of the tables a refused sign-in must leave alone. */
export async function signInRowCounts(hub: TestHub): Promise<Record<'users' | 'sessions' | 'identities', number>> {
  const { db } = hub.services;
  const count = async (table: string) => Number((await db(table).count({ n: '*' }))[0]!.n);
  return {
    users: await count('users'),
    sessions: await count('login_sessions'),
    identities: await count('user_identities'),
  };
}

/** Configures an identity provider on the hub as `hub identity-provider set` does (http allowed: loopback). */
export async function setProvider(
  hub: TestHub,
  input: Partial<ProviderSettingsInput> & Pick<ProviderSettingsInput, 'id' | 'kind'>,
  clientSecret: string,
): Promise<void> {
  const settings = checkProviderSettings(
    {
      label: `Sign in with ${input.id}`,
      issuer: undefined,
      baseUrl: undefined,
      clientId: 'hub',
      subjectClaim: undefined,
      tokenAuth: undefined,
      allowedTenants: undefined,
      allowedEmailDomains: undefined,
      ...input,
    },
    true,
  );
  await hub.services.identityProviders.set(settings, clientSecret);
}

/**
 * `GET /auth/{id}/start` in the browser (with `link`, `?link=1`: connecting one more identity to
 * the browser's session); the provider's authorization URL it was sent to.
 */
export async function startSignIn(
  browser: TestBrowser,
  providerId: string,
  returnTo?: string,
  link = false,
): Promise<string> {
  const params = [
    ...(returnTo === undefined ? [] : [`returnTo=${encodeURIComponent(returnTo)}`]),
    ...(link ? ['link=1'] : []),
  ];
  const query = params.length ? `?${params.join('&')}` : '';
  const from = `${TEST_ORIGIN}/auth/${providerId}/start${query}`;
  const response = await browser.request(from);
  if (response.status !== 303) throw new Error(`start answered ${response.status}: ${await response.text()}`);
  return locationOf(response, from);
}

/**
 * Walks an OpenID Provider's pages (`oidc-provider`'s development login and consent forms) from
 * its authorization URL as `login`, until it sends the browser back to the service; that URL.
 */
export async function signInAtProvider(browser: TestBrowser, authorizationUrl: string, login: string): Promise<string> {
  let url = authorizationUrl;
  for (let hop = 0; hop < 20; hop += 1) {
    if (url.startsWith(`${TEST_ORIGIN}/`)) return url;
    const response = await browser.request(url);
    if (response.status >= 300 && response.status < 400) {
      url = locationOf(response, url);
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || !action) throw new Error(`the provider answered ${response.status}: ${html}`);
    const form: Record<string, string> = html.includes('name="login"')
      ? { prompt: 'login', login, password: 'any password' }
      : { prompt: 'consent' };
    const posted = await browser.request(new URL(action, url).href, { method: 'POST', form });
    url = locationOf(posted, url);
  }
  throw new Error('the provider never sent the browser back');
}

/** The whole sign-in, start to callback (with `link`, connecting to the browser's session); the callback's answer. */
export async function signInThrough(
  browser: TestBrowser,
  providerId: string,
  login: string,
  returnTo?: string,
  link = false,
): Promise<Response> {
  const authorization = await startSignIn(browser, providerId, returnTo, link);
  const callback = await signInAtProvider(browser, authorization, login);
  return browser.request(callback);
}

const CLIENT_SECRET = 'oidc-client-secret-for-tests';

/**
 * A hub that lets people sign in through one real OpenID Provider on loopback, configured under
 * each of `providerIds` (the same accounts behind every one), each vouching for the email domains
 * `emailDomains` gives it. Stop both when done.
 */
export async function hubWithOpenIdProvider(
  providerIds: string[],
  /** Each provider's `--email-domains` (the domains it vouches for), by id; none when left out. */
  emailDomains: Record<string, string> = {},
): Promise<{ hub: TestHub; idp: TestOpenIdProvider }> {
  const hub = await TestHub.start({ config: { outboundAllowPrivate: true, signInRatePerMinute: 10_000 } });
  const idp = await TestOpenIdProvider.start({
    clientId: 'hub',
    clientSecret: CLIENT_SECRET,
    redirectUris: providerIds.map((id) => `${TEST_ORIGIN}/auth/${id}/callback`),
  });
  for (const id of providerIds) {
    const settings = { id, kind: 'oidc', issuer: idp.issuer, allowedEmailDomains: emailDomains[id] };
    await setProvider(hub, settings, CLIENT_SECRET);
  }
  return { hub, idp };
}
