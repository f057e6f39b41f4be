import http, { type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OutboundClient, type Resolver } from '../../src/outbound/client.js';

/** Names the tests use, resolved without DNS; nothing here ever connects outside loopback. */
const stubResolver: Resolver = async (hostname) => {
  const table: Record<string, { address: string; family: number }[]> = {
    'public.test': [{ address: '93.184.216.34', family: 4 }],
    'intranet.test': [{ address: '10.0.0.7', family: 4 }],
    'split.test': [
      { address: '93.184.216.34', family: 4 },
      { address: '192.168.0.10', family: 4 },
    ],
    'metadata.test': [{ address: '::ffff:169.254.169.254', family: 6 }],
    'receiver.test': [{ address: '127.0.0.1', family: 4 }],
    'teredo.test': [{ address: '2001:0:4136:e378:8000:63bf:3fff:fdd2', family: 6 }],
    'relay-6to4.test': [{ address: '192.88.99.1', family: 4 }],
    'orchid.test': [{ address: '2001:20::1', family: 6 }],
    'benchmark.test': [{ address: '2001:2::1', family: 6 }],
  };
  const found = table[hostname];
  if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return found;
};

const strict = new OutboundClient({ allowPrivate: false, resolver: stubResolver });
const lenient = (options: { timeoutMs?: number } = {}) =>
  new OutboundClient({ allowPrivate: true, resolver: stubResolver, ...options });

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((done) => server.close(done));
    }),
  );
});

async function loopbackServer(handler: RequestListener): Promise<number> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
}

const refusedFor = async (client: OutboundClient, url: string) => {
  const result = await client.check(url);
  return 'refused' in result ? result.reason : undefined;
};

describe('OutboundClient.check', () => {
  it('accepts an https URL whose name resolves to a public address, and keeps that address', async () => {
    const result = await strict.check('https://public.test/hooks');
    expect(result).toMatchObject({ address: { address: '93.184.216.34' } });
  });

  it('refuses plain http, user names, and names that do not resolve', async () => {
    expect(await refusedFor(strict, 'http://public.test/')).toBe(
      'must be an https URL (http only with HUB_OUTBOUND_ALLOW_PRIVATE=1)',
    );
    expect(await refusedFor(strict, 'https://user:pw@public.test/')).toBe('must not carry a user name or password');
    expect(await refusedFor(strict, 'https://nowhere.test/')).toBe('names a host that does not resolve');
    expect(await refusedFor(strict, 'not a url')).toBe('is not an absolute URL');
    expect(await refusedFor(strict, 'ftp://public.test/')).toBe(
      'must be an https URL (http only with HUB_OUTBOUND_ALLOW_PRIVATE=1)',
    );
  });

  it.each([
    ['https://127.0.0.1/', 'resolves to a loopback address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
    ['https://10.2.3.4/', 'resolves to a private network address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
    ['https://172.20.0.1/', 'resolves to a private network address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
    ['https://192.168.0.1/', 'resolves to a private network address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
    [
      'https://169.254.169.254/latest/meta-data',
      'resolves to a link-local address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)',
    ],
    ['https://[fe80::1]/', 'resolves to a link-local address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
    ['https://100.64.1.1/', 'resolves to a carrier-grade NAT address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
    ['https://224.0.0.251/', 'resolves to a multicast address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
    ['https://[ff02::1]/', 'resolves to a multicast address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
    ['https://0.0.0.0/', 'resolves to an unspecified address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
    ['https://[::]/', 'resolves to an unspecified address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
    ['https://[fd00::1]/', 'resolves to a unique-local address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
    ['https://[::1]/', 'resolves to a loopback address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
    ['https://[::ffff:127.0.0.1]/', 'resolves to a loopback address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
    ['https://[::ffff:7f00:1]/', 'resolves to a loopback address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
    ['https://2130706433/', 'resolves to a loopback address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
    ['https://017700000001/', 'resolves to a loopback address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
    ['https://0x7f000001/', 'resolves to a loopback address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
    ['https://0x7f.0.0.1/', 'resolves to a loopback address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)'],
  ])('refuses %s', async (url, reason) => {
    expect(await refusedFor(strict, url)).toBe(reason);
  });

  it('refuses a name that resolves to a private address, or to a private one among public ones', async () => {
    expect(await refusedFor(strict, 'https://intranet.test/')).toBe(
      'resolves to a private network address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)',
    );
    expect(await refusedFor(strict, 'https://split.test/')).toBe(
      'resolves to a private network address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)',
    );
    expect(await refusedFor(strict, 'https://metadata.test/')).toBe(
      'resolves to a link-local address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)',
    );
  });

  it('refuses names that resolve into Teredo, the 6to4 relay, ORCHIDv2 or the benchmarking range', async () => {
    for (const name of ['teredo.test', 'relay-6to4.test', 'orchid.test', 'benchmark.test']) {
      expect(await refusedFor(strict, `https://${name}/`), name).toBe(
        'resolves to a reserved address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)',
      );
    }
  });

  it('with HUB_OUTBOUND_ALLOW_PRIVATE allows private addresses and plain http, but no other scheme', async () => {
    expect(await lenient().check('http://intranet.test/')).toMatchObject({ address: { address: '10.0.0.7' } });
    expect(await refusedFor(lenient(), 'ftp://public.test/')).toBe('must be an http or https URL');
  });
});

describe('OutboundClient.send (loopback receivers, HUB_OUTBOUND_ALLOW_PRIVATE on)', () => {
  it('connects to the address it checked, not to whatever the name resolves to later', async () => {
    const seen: string[] = [];
    const port = await loopbackServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.host}`);
      res.end('ok');
    });
    // receiver.test resolves only through the stub: the socket must use the checked address.
    const result = await lenient().send({
      url: `http://receiver.test:${port}/hook?x=1`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(result).toMatchObject({ outcome: 'answered', status: 200, body: 'ok' });
    expect(seen).toEqual([`POST /hook?x=1 receiver.test:${port}`]);
  });

  it('does not follow a redirect, even to a private URL it would allow', async () => {
    let followed = false;
    const port = await loopbackServer((req, res) => {
      if (req.url === '/moved') followed = true;
      res.writeHead(302, { location: `http://127.0.0.1:${(req.socket.address() as AddressInfo).port}/moved` });
      res.end();
    });
    const result = await lenient().send({ url: `http://127.0.0.1:${port}/hook`, method: 'POST', headers: {} });
    expect(result).toMatchObject({ outcome: 'answered', status: 302 });
    expect(followed).toBe(false);
  });

  it('keeps only the first KiB of the answer', async () => {
    const port = await loopbackServer((_req, res) => res.end('x'.repeat(64 * 1024)));
    const result = await lenient().send({ url: `http://127.0.0.1:${port}/`, method: 'GET', headers: {} });
    expect(result.outcome).toBe('answered');
    expect(result.outcome === 'answered' && result.body.length).toBe(1024);
  });

  it('gives up on a receiver that does not answer within the time limit', async () => {
    const port = await loopbackServer(() => {
      // Never answers.
    });
    const result = await lenient({ timeoutMs: 50 }).send({
      url: `http://127.0.0.1:${port}/`,
      method: 'GET',
      headers: {},
    });
    expect(result).toMatchObject({ outcome: 'failed', reason: 'no answer within the time limit' });
  });

  it('refuses before sending anything when the address rule is on', async () => {
    let reached = false;
    const port = await loopbackServer((_req, res) => {
      reached = true;
      res.end();
    });
    const result = await strict.send({ url: `https://127.0.0.1:${port}/`, method: 'POST', headers: {}, body: '{}' });
    expect(result).toEqual({
      outcome: 'refused',
      reason: 'resolves to a loopback address (allowed only with HUB_OUTBOUND_ALLOW_PRIVATE=1)',
      durationMs: 0,
    });
    expect(reached).toBe(false);
  });
});
