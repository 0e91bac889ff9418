import dns2 from 'dns2';
import type { SsoSettings } from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { jsonRequest } from './helper.ts';

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

  private constructor(
    private readonly server: ReturnType<typeof dns2.createServer>,
    private readonly port: number,
  ) {}

  static async start(): Promise<DnsStandIn> {
    let standIn: DnsStandIn | undefined;
    const server = dns2.createServer({
      udp: true,
      handle: (request, send) => standIn?.answer(request, send),
    });
    await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
    standIn = new DnsStandIn(server, server.addresses().udp!.port);
    return standIn;
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

  private answer(request: InstanceType<typeof Packet>, send: (response: InstanceType<typeof Packet>) => unknown) {
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

/** The listed domain as GET /api/v1/sso shows it. */
export async function emailDomainOf(app: FastifyInstance, cookie: string, domain: string) {
  const settings = await app.inject(jsonRequest('GET', '/api/v1/sso', undefined, cookie));
  expect(settings.statusCode, settings.body).toBe(200);
  const listed = (settings.json() as SsoSettings).emailDomains.find((entry) => entry.domain === domain);
  if (!listed) throw new Error(`${domain} is not listed`);
  return listed;
}

export function verifyEmailDomain(app: FastifyInstance, cookie: string, domain: string) {
  return app.inject(jsonRequest('POST', `/api/v1/sso/email-domains/${encodeURIComponent(domain)}/verify`, undefined, cookie));
}

/** The super-admin publishes the record the page shows for a listed domain, then presses Verify: it must be verified. */
export async function proveEmailDomain(app: FastifyInstance, cookie: string, dns: DnsStandIn, domain: string) {
  const { record } = await emailDomainOf(app, cookie, domain);
  dns.publish(record.name, [record.value]);
  const verified = await verifyEmailDomain(app, cookie, domain);
  expect(verified.statusCode, verified.body).toBe(200);
  const settings = verified.json() as SsoSettings;
  expect(settings.emailDomains.find((entry) => entry.domain === domain)).toMatchObject({ status: 'verified' });
  return settings;
}
