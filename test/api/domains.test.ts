import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, expectError, okBody } from '../support/assertions.js';
import { TestDnsServer } from '../support/dns-server.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';

let hub: TestHub;
let dns: TestDnsServer;
let counter = 0;

beforeAll(async () => {
  dns = await TestDnsServer.start();
  hub = await TestHub.start({ config: { dnsServers: [dns.address] } });
});
afterAll(async () => {
  await hub?.stop();
  await dns?.stop();
});

const unique = (prefix: string) => `${prefix}-${++counter}`;
const freshOrg = () => seedOrg(hub, unique('dom'));
const freshDomain = () => `${unique('acme')}.example`;

const add = (org: OrgFixture, domain: string) => okBody(org.call('admin', 'addDomain', { body: { domain } }), 201);
const verify = (org: OrgFixture, domainId: string) => org.call('admin', 'verifyDomain', { path: { domainId } });

/** Publishes the TXT record the domain's verification asks for. */
const publish = (added: { verification: { name: string; value: string } }) =>
  dns.publish(added.verification.name, added.verification.value);

describe('adding a domain', () => {
  it('answers it pending with the TXT record to publish, kept in one spelling, audited', async () => {
    const org = await freshOrg();
    const added = await add(org, ' Bücher-Shop.EXAMPLE. ');
    expect(added).toMatchObject({
      domain: 'xn--bcher-shop-9db.example',
      status: 'pending',
      verifiedAt: null,
      verification: { type: 'dns-txt', name: '_hub-verification.xn--bcher-shop-9db.example' },
    });
    expect(added.verification.value).toMatch(/^hub-verification=[A-Za-z0-9_-]{43}$/);
    expect((await okBody(org.call('member', 'getOrgSettings'))).autoJoin).toBeNull();
    const listed = await okBody(org.call('owner', 'listDomains'));
    expect(listed).toEqual({ domains: [added], nextCursor: null });
    const events = await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'addDomain' } }));
    expect(events.events[0]).toMatchObject({
      target: { type: 'domain', id: added.id, label: added.domain },
      changes: { before: null, after: added },
    });
  });

  it('refuses what is no domain with 400, and the same domain twice with 409', async () => {
    const org = await freshOrg();
    for (const bad of [
      '1.2.3.4',
      '*.acme.example',
      'localhost',
      'bob@acme.example',
      'a..b.example',
      'a_b.example',
      '-a.example',
      'acme.123',
      ' ',
    ]) {
      const res = await org.api('admin', 'POST', '/domains', { domain: bad });
      expect(errorBody(res).error.code, bad).toBe('validation_failed');
      expect(res.status).toBe(400);
    }
    const domain = freshDomain();
    await add(org, domain);
    expectError(await org.call('admin', 'addDomain', { body: { domain: domain.toUpperCase() } }), 409, 'domain_exists');
    expect((await okBody(org.call('owner', 'listDomains'))).domains).toHaveLength(1);
  });

  it('pages the list in domain order', async () => {
    const org = await freshOrg();
    const names = ['c.example', 'a.example', 'b.example'];
    for (const name of names) await add(org, name);
    const first = await okBody(org.call('owner', 'listDomains', { query: { limit: 2 } }));
    expect(first.domains.map((d) => d.domain)).toEqual(['a.example', 'b.example']);
    const second = await okBody(org.call('owner', 'listDomains', { query: { limit: 2, cursor: first.nextCursor! } }));
    expect(second).toMatchObject({ domains: [{ domain: 'c.example' }], nextCursor: null });
  });
});

describe('verifying a domain through DNS', () => {
  it('succeeds when a TXT record carries the token, among other records', async () => {
    const org = await freshOrg();
    const added = await add(org, freshDomain());
    dns.publish(added.verification.name, 'v=spf1 -all');
    // A record split into two strings is read as their concatenation, as resolvers do.
    const value = added.verification.value;
    dns.publish(added.verification.name, value.slice(0, 20), value.slice(20));
    const verified = await okBody(verify(org, added.id));
    expect(verified).toMatchObject({ id: added.id, status: 'verified', verification: added.verification });
    expect(Date.parse(verified.verifiedAt!)).not.toBeNaN();
    // Verifying again answers it as it is.
    expect(await okBody(verify(org, added.id))).toEqual(verified);
    const events = await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'verifyDomain' } }));
    expect(events.events).toHaveLength(1);
    expect(events.events[0]!.changes).toMatchObject({ before: { status: 'pending' }, after: { status: 'verified' } });
  });

  it('fails with 422, saying what DNS answered, and leaves the domain pending', async () => {
    const org = await freshOrg();
    const missing = await add(org, freshDomain());
    const none = errorBody(await verify(org, missing.id));
    expect(none.error.code).toBe('domain_verification_failed');
    expect(none.error.message).toContain('the name does not exist in DNS');
    expect(none.error.message).toContain(missing.verification.name);

    const wrong = await add(org, freshDomain());
    dns.publish(wrong.verification.name, 'hub-verification=someone-elses-token');
    const res = await verify(org, wrong.id);
    expectError(res, 422, 'domain_verification_failed');
    expect(errorBody(res).error.message).toContain(`do not include "${wrong.verification.value}"`);
    const listed = await okBody(org.call('owner', 'listDomains'));
    expect(listed.domains.map((d) => d.status)).toEqual(['pending', 'pending']);
    const events = await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'verifyDomain' } }));
    expect(events.events).toHaveLength(0);

    // Once the record is published, the same domain verifies.
    publish(wrong);
    expect(await okBody(verify(org, wrong.id))).toMatchObject({ status: 'verified' });
  });

  it('belongs to one organization at a time: domain_claimed', async () => {
    const [first, second] = [await freshOrg(), await freshOrg()];
    const domain = freshDomain();
    const a = await add(first, domain);
    const b = await add(second, domain);
    publish(a);
    publish(b);
    await okBody(verify(first, a.id));
    expectError(await verify(second, b.id), 409, 'domain_claimed');
    expectError(await second.call('admin', 'addDomain', { body: { domain } }), 409, 'domain_exists');
    const third = await freshOrg();
    expectError(await third.call('admin', 'addDomain', { body: { domain } }), 409, 'domain_claimed');
    expect((await okBody(second.call('owner', 'listDomains'))).domains[0]).toMatchObject({ status: 'pending' });
    // Released when the first removes it: the second's record then verifies.
    expect((await first.call('admin', 'deleteDomain', { path: { domainId: a.id } })).status).toBe(204);
    expect(await okBody(verify(second, b.id))).toMatchObject({ status: 'verified' });
  });

  it('answers 404 for another organization’s domain, changing nothing', async () => {
    const [org, other] = [await freshOrg(), await freshOrg()];
    const added = await add(other, freshDomain());
    publish(added);
    expectError(await verify(org, added.id), 404, 'domain_not_found');
    expectError(await org.call('admin', 'deleteDomain', { path: { domainId: added.id } }), 404, 'domain_not_found');
    expect((await okBody(other.call('owner', 'listDomains'))).domains).toEqual([added]);
  });
});
