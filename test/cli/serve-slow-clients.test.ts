import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Instance, request } from '../cluster/instances.js';

/**
 * `hub serve`'s own server closes slow clients and caps its connections (HUB_HEADERS_TIMEOUT_MS,
 * HUB_REQUEST_TIMEOUT_MS, HUB_MAX_CONNECTIONS), here set small; SQLite, one process each.
 */
let timeouts: Instance;
let capped: Instance;
const CAP = 3;

beforeAll(async () => {
  [timeouts, capped] = await Promise.all([
    Instance.start('slow-clients', '', { HUB_HEADERS_TIMEOUT_MS: '500', HUB_REQUEST_TIMEOUT_MS: '1000' }),
    // Long timeouts, so the sockets held open below are closed by nothing but the test.
    Instance.start('capped', '', {
      HUB_MAX_CONNECTIONS: String(CAP),
      HUB_HEADERS_TIMEOUT_MS: '600000',
      HUB_REQUEST_TIMEOUT_MS: '600000',
    }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([timeouts?.stop(), capped?.stop()]);
});

/** A raw connection to the instance, and a promise of its close (with whatever the server wrote). */
async function connect(instance: Instance): Promise<{ socket: net.Socket; closed: Promise<string> }> {
  const { hostname, port } = new URL(instance.url);
  const socket = net.connect(Number(port), hostname);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (d) => (received += d));
  socket.on('error', () => undefined); // a reset is a close as far as these tests go
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('close', () => reject(new Error('closed before it connected')));
  });
  return { socket, closed };
}

/** Writes a line every so often until the socket closes: a client that is never done. */
function dribble(socket: net.Socket, line: () => string): void {
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write(line());
  }, 100);
  socket.once('close', () => clearInterval(timer));
}

describe('slow clients', () => {
  it('closes a connection that sends its headers too slowly', async () => {
    const { socket, closed } = await connect(timeouts);
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    let n = 0;
    dribble(socket, () => {
      n += 1;
      return `X-Slow-${n}: still coming\r\n`;
    });
    const written = await closed;
    // What node:http answers before it closes, when it answers at all.
    if (written) expect(written).toMatch(/^HTTP\/1\.1 408/);
  }, 60_000);

  it('closes a connection that sends its body too slowly', async () => {
    const { socket, closed } = await connect(timeouts);
    socket.write(
      'POST /api/orgs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n',
    );
    dribble(socket, () => ' ');
    await closed;
    expect(socket.destroyed).toBe(true);
  }, 60_000);

  it('still answers a client that is not slow', async () => {
    expect((await request('GET', `${timeouts.url}/healthz`)).status).toBe(200);
  });
});

describe('the connection cap', () => {
  it('closes the connections past the cap as they arrive, and serves again once one is gone', async () => {
    const held = [];
    for (let i = 0; i < CAP; i += 1) held.push(await connect(capped));
    const { hostname, port } = new URL(capped.url);
    const extra = net.connect(Number(port), hostname);
    extra.on('error', () => undefined);
    extra.setEncoding('utf8');
    let answered = '';
    extra.on('data', (d) => (answered += d));
    extra.once('connect', () => extra.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
    await new Promise((resolve) => extra.once('close', resolve));
    expect(answered).toBe('');

    for (const { socket, closed } of held) {
      socket.destroy();
      await closed;
    }
    let status = 0;
    // The server counts a connection gone once it has seen its close; a few tries cover the moment.
    for (let attempt = 0; attempt < 50 && status !== 200; attempt += 1) {
      status = await request('GET', `${capped.url}/healthz`).then(
        (answer) => answer.status,
        () => 0,
      );
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
  }, 60_000);
});
