import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okBody } from '../support/assertions.js';
import { cliEnv, runHub } from '../support/hub-cli.js';
import type { TestOpenIdProvider } from '../support/openid-provider.js';
import { hubWithOpenIdProvider, signInThrough, testBrowser } from '../support/sign-in-flow.js';
import { TEST_ORIGIN, type TestHub } from '../support/test-hub.js';

/**
 * `hub org create --owner-email E --provider P`: an organization that waits for its owner until
 * the first sign-in through P with the verified address E, its domain verified for it, against a
 * real OpenID Provider on loopback.
 */
let hub: TestHub;
let idp: TestOpenIdProvider;
let env: NodeJS.ProcessEnv;

const orgId = async (slug: string) => (await hub.services.db('organizations').where({ slug }).first()).id as string;
const userOf = async (login: string) =>
  (await hub.services.db('user_identities').where({ provider_id: 'corp', subject: login }).first())?.user_id as string;
const roleIn = async (slug: string, userId: string) =>
  (
    await hub.services
      .db('memberships')
      .where({ organization_id: await orgId(slug), user_id: userId })
      .whereNull('revoked_at')
      .first()
  )?.role as string | undefined;
/** Signs `login` in through `providerId` in a fresh browser; the callback's answer and the session's cookie header. */
async function signIn(login: string, providerId = 'corp') {
  const browser = testBrowser(hub);
  const answer = await signInThrough(browser, providerId, login);
  return { answer, cookie: browser.cookieHeader(TEST_ORIGIN) };
}
const orgList = async () => {
  const listed = await runHub(['org', 'list'], env);
  expect(listed.code, listed.stderr).toBe(0);
  return listed.stdout;
};

beforeAll(async () => {
  ({ hub, idp } = await hubWithOpenIdProvider(['corp', 'other'], { corp: 'globex.example', other: 'globex.example' }));
  env = cliEnv(hub.database.dataDir, hub.database.databaseUrl);
  const account = (email: string, emailVerified = true) => ({ name: email, email, email_verified: emailVerified });
  idp.addAccount('gina', account('gina@globex.example'));
  idp.addAccount('gina-unverified', account('gina@globex.example', false));
  idp.addAccount('hank', account('hank@globex.example'));
});
afterAll(async () => {
  await idp?.stop();
  await hub?.stop();
});

describe('an organization waiting for its owner', () => {
  it('is created with no member, audited as the console, and listed as waiting', async () => {
    const created = await runHub(
      ['org', 'create', 'globex', '--name', 'Globex', '--owner-email', 'Gina@Globex.example', '--provider', 'corp'],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(
      /^created organization globex \(.+\), waiting for its owner: .*gina@globex\.example/,
    );
    const id = await orgId('globex');
    expect(Number((await hub.services.db('memberships').where({ organization_id: id }).count({ n: '*' }))[0]!.n)).toBe(
      0,
    );
    const [event] = await hub.services.db('audit_events').where({ organization_id: id });
    expect(event).toMatchObject({ action: 'hub.org.create' });
    expect(JSON.parse(event.changes).after).toMatchObject({
      pendingOwner: { email: 'gina@globex.example', providerId: 'corp' },
    });
    expect(await orgList()).toMatch(
      /^globex\t.+\tactive\tGlobex\twaiting for its owner: .*gina@globex\.example.*corp/m,
    );
  });

  it('refuses a provider that does not vouch for the address, an unknown one, and a bad address', async () => {
    for (const [args, message] of [
      [
        ['--owner-email', 'x@elsewhere.example', '--provider', 'corp'],
        /does not vouch for addresses at elsewhere\.example/,
      ],
      [['--owner-email', 'x@globex.example', '--provider', 'nope'], /no identity provider "nope"/],
      [['--owner-email', 'nobody', '--provider', 'corp'], /no email address/],
      [['--owner-email', 'x@globex.example'], /--provider is required/],
      [['--owner-email', 'x@globex.example', '--provider', 'corp', '--owner', 'ou_x'], /leave out --owner/],
    ] as const) {
      const result = await runHub(['org', 'create', 'initech', '--name', 'Initech', ...args], env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    expect(await hub.services.db('organizations').where({ slug: 'initech' }).first()).toBeUndefined();
  });

  it('waits while the domain or the address is unverified, or for a sign-in through another provider', async () => {
    await signIn('gina');
    expect(await roleIn('globex', await userOf('gina'))).toBeUndefined();
    const verified = await runHub(['domain', 'verify', 'globex', 'globex.example'], env);
    expect(verified.code, verified.stderr).toBe(0);
    await signIn('gina', 'other');
    await signIn('gina-unverified');
    await signIn('hank');
    expect(await hub.services.db('memberships').where({ organization_id: await orgId('globex') })).toEqual([]);
    expect(await orgList()).toMatch(/waiting for its owner/);
  });

  it('makes the first verified sign-in through the provider with the address its OWNER, once, audited', async () => {
    const { answer, cookie } = await signIn('gina');
    expect(answer.status).toBe(303);
    const gina = await userOf('gina');
    expect(await roleIn('globex', gina)).toBe('OWNER');
    const events = await okBody(
      hub.call('listAuditEvents', {
        path: { orgSlug: 'globex' },
        query: { action: 'organization.owner_claim' },
        cookie,
      }),
    );
    expect(events.events).toEqual([
      expect.objectContaining({
        actor: { type: 'system', id: null, displayName: 'sign-in' },
        target: expect.objectContaining({ type: 'member', id: gina }),
      }),
    ]);
    expect(await orgList()).not.toMatch(/waiting/);
    // The claim is used: a later sign-in changes nothing more.
    await signIn('gina');
    expect((await hub.services.db('audit_events').where({ action: 'organization.owner_claim' })).length).toBe(1);
  });

  it('has `hub invite --role OWNER` as the other way to a first owner', async () => {
    await runHub(
      ['org', 'create', 'umbrella', '--name', 'Umbrella', '--owner-email', 'hank@globex.example', '--provider', 'corp'],
      env,
    );
    const invited = await runHub(['invite', 'umbrella', '--role', 'OWNER'], env);
    expect(invited.code, invited.stderr).toBe(0);
    const token = invited.stdout.trim().split('/invite/')[1]!;
    const { cookie } = await signIn('hank', 'other');
    const accepted = await hub.call('acceptInvitation', { path: { token }, cookie });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const hank = (await hub.services.db('user_identities').where({ provider_id: 'other', subject: 'hank' }).first())
      .user_id;
    expect(await roleIn('umbrella', hank)).toBe('OWNER');
  });
});
