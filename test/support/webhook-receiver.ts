import http, { type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1 that keeps every request and answers `status` (changeable
 * between requests) with `answer`; `hold` keeps requests unanswered until released.
 */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  status = 200;
  answer = 'ok';
  hold = false;
  private readonly held: http.ServerResponse[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(path = '/hook'): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const self = receiver!;
        self.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (self.hold) {
          self.held.push(res);
          return;
        }
        res.writeHead(self.status, { 'content-type': 'text/plain' });
        res.end(self.answer);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}${path}`);
    return receiver;
  }

  /** Resolves once `count` requests have arrived (polled; the test's own timeout bounds it). */
  async waitFor(count: number): Promise<ReceivedDelivery[]> {
    while (this.received.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
    return this.received;
  }

  async stop(): Promise<void> {
    for (const res of this.held.splice(0)) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
