import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Network, RegionKey } from '@portal/contracts';
import { afterAll, beforeAll } from 'vitest';
import { useTestApp } from './helper.ts';

/**
 * A stand-in for the regional platform's admin API (a third party to the portal), serving the
 * three regions under /sg, /eu and /us of one local HTTP server. It keeps networks in memory,
 * reports a new network `provisioning` for a few reads, and can be told to fail with 503.
 */
export class RegionStandIn {
  readonly token = 'region-admin-token-for-tests';
  readonly networks = new Map<string, Network>();
  readonly requests: { method: string; path: string; authorized: boolean }[] = [];
  /** The next this-many requests answer 503. */
  failNext = 0;
  /** Reads of a new network that still answer `provisioning`. */
  provisioningReads = 1;
  private readonly readsLeft = new Map<string, number>();
  private server: http.Server | undefined;
  url = '';

  async start() {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => this.handle(req, res, body));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** The portal configuration that points all three regions here. */
  env(): Record<string, string> {
    return {
      REGION_SG_URL: `${this.url}/sg`,
      REGION_EU_URL: `${this.url}/eu`,
      REGION_US_URL: `${this.url}/us`,
      REGION_ADMIN_TOKEN: this.token,
    };
  }

  networkOf(applicationId: string) {
    return [...this.networks.values()].find((n) => n.applicationId === applicationId);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    const authorized = req.headers.authorization === `Bearer ${this.token}`;
    const match = (req.url ?? '').match(/^\/(sg|eu|us)\/admin\/v1\/networks(?:\/([^/]+))?(?:\/(deactivate|reactivate))?$/);
    this.requests.push({ method: req.method ?? '', path: req.url ?? '', authorized });
    if (this.failNext > 0) {
      this.failNext -= 1;
      return send(503, { message: 'region unavailable' });
    }
    if (!authorized) return send(401, { message: 'bad admin token' });
    if (!match?.[1]) return send(404, { message: 'not found' });
    const region = match[1].toUpperCase() as RegionKey;
    const [, , networkId, action] = match;
    const parsed = body ? (JSON.parse(body) as Record<string, string>) : {};
    if (!networkId && req.method === 'POST') {
      const existing = this.networkOf(parsed.applicationId ?? '');
      if (existing) return send(201, existing);
      const id = `net-${this.networks.size + 1}`;
      const network: Network = {
        networkId: id,
        applicationId: parsed.applicationId ?? '',
        name: parsed.name ?? '',
        status: 'provisioning',
        consoleUrl: `${this.url}/${match[1]}/console/${id}`,
        region,
      };
      this.networks.set(id, network);
      this.readsLeft.set(id, this.provisioningReads);
      return send(201, network);
    }
    const network = networkId ? this.networks.get(networkId) : undefined;
    if (!network) return send(404, { message: 'no such network' });
    if (req.method === 'GET') {
      const left = this.readsLeft.get(network.networkId) ?? 0;
      if (network.status === 'provisioning' && left <= 0) network.status = 'active';
      this.readsLeft.set(network.networkId, left - 1);
      return send(200, network);
    }
    if (req.method === 'PUT' && !action) {
      network.name = parsed.name ?? network.name;
      return send(200, network);
    }
    if (req.method === 'POST' && action) {
      network.status = action === 'deactivate' ? 'inactive' : 'active';
      return send(200, network);
    }
    return send(405, { message: 'method not allowed' });
  }
}

/**
 * The portal for this test file with its three regions pointed at a stand-in started first.
 * The stand-in's address is known only once it listens, so the env is filled in before the
 * portal is built (beforeAll hooks run in the order they are registered).
 */
export function usePortalWithRegionStandIn(env: Record<string, string>) {
  const region = new RegionStandIn();
  const fullEnv = { ...env };
  beforeAll(async () => {
    await region.start();
    Object.assign(fullEnv, region.env());
  });
  afterAll(() => region.stop());
  return { region, t: useTestApp(fullEnv) };
}
