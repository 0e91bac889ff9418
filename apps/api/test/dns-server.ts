import dns2 from 'dns2';

const { Packet } = dns2;

/**
 * A DNS server on the loopback (the dns2 package) answering the TXT records a test publishes, so
 * the portal's SSO email domain proofs are checked without the network (DNS_SERVERS points at it).
 * Names without records answer NXDOMAIN; a name can be made to fail (SERVFAIL) or go unanswered.
 */
export class DnsStandIn {
  private readonly records = new Map<string, string[][]>();
  private readonly failing = new Map<string, 'servfail' | 'silent'>();
  /** The names asked for, in order. */
  readonly questions: string[] = [];

  private readonly server = dns2.createServer({
    udp: true,
    handle: (request, send) => this.answer(request, send),
  });

  private constructor() {}

  static async start(): Promise<DnsStandIn> {
    const standIn = new DnsStandIn();
    await standIn.server.listen({ udp: { port: 0, address: '127.0.0.1' } });
    return standIn;
  }

  private get port(): number {
    return this.server.addresses().udp!.port;
  }

  /** What the portal needs to ask this server. */
  get portalEnv(): Record<string, string> {
    return { DNS_SERVERS: `127.0.0.1:${this.port}` };
  }

  /** TXT records at a name, each given as its strings (a long record is split into several). */
  publish(name: string, ...records: string[][]) {
    this.records.set(name.toLowerCase(), records);
    this.failing.delete(name.toLowerCase());
  }

  remove(name: string) {
    this.records.delete(name.toLowerCase());
  }

  /** The name's lookups fail: SERVFAIL, or no answer at all (the portal's time-out). */
  fail(name: string, how: 'servfail' | 'silent') {
    this.failing.set(name.toLowerCase(), how);
  }

  async stop() {
    await this.server.close();
  }

  private answer(
    request: InstanceType<typeof Packet>,
    send: (response: InstanceType<typeof Packet>) => unknown,
  ) {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const name = question?.name.toLowerCase() ?? '';
    this.questions.push(name);
    const failing = this.failing.get(name);
    if (failing === 'silent') return;
    if (failing === 'servfail') response.header.rcode = Packet.RCODE.SERVFAIL;
    else {
      const records = this.records.get(name);
      if (!records) response.header.rcode = Packet.RCODE.NXDOMAIN;
      for (const data of records ?? [])
        response.answers.push(
          Object.assign(new Packet.Resource(question!.name, Packet.TYPE.TXT, Packet.CLASS.IN, 1), { data }),
        );
    }
    send(response);
  }
}
