import dns2 from 'dns2';

const { Packet } = dns2;

/**
 * A real DNS server (`dns2`) on 127.0.0.1 answering TXT questions from `records`: a name with
 * records answers them, any other name NXDOMAIN. The hub is pointed at it with `dnsServers`
 * (`HUB_DNS_SERVERS`), so no lookup leaves loopback.
 */
export class TestDnsServer {
  private constructor(
    private readonly server: ReturnType<typeof dns2.createServer>,
    /** `127.0.0.1:<port>`, as `HUB_DNS_SERVERS` names a server. */
    readonly address: string,
    /** TXT records by lower-cased name, each record its strings (one usually). */
    private readonly records: Map<string, string[][]>,
  ) {}

  static async start(): Promise<TestDnsServer> {
    const records = new Map<string, string[][]>();
    const server = dns2.createServer({
      udp: true,
      handle: (request, send) => {
        const response = Packet.createResponseFromRequest(request);
        const [question] = request.questions;
        const answers = question && question.type === Packet.TYPE.TXT ? records.get(question.name.toLowerCase()) : [];
        if (!answers) response.header.rcode = Packet.RCODE.NXDOMAIN;
        for (const data of answers ?? []) {
          // dns2's type asks for a method its encoder never calls on an answer given as plain fields.
          const answer = { name: question!.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data };
          response.answers.push(answer as unknown as (typeof response.answers)[number]);
        }
        send(response);
      },
    });
    const listening = new Promise<void>((resolve) => server.once('listening', () => resolve()));
    await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
    await listening;
    const { udp } = server.addresses() as { udp: { port: number } };
    return new TestDnsServer(server, `127.0.0.1:${udp.port}`, records);
  }

  /** Publishes one TXT record more at the name. */
  publish(name: string, ...strings: string[]): void {
    const key = name.toLowerCase();
    this.records.set(key, [...(this.records.get(key) ?? []), strings]);
  }

  async stop(): Promise<void> {
    await this.server.close();
  }
}
