import type { SsoSettings } from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { DnsStandIn } from './dns-server.ts';
import { jsonRequest } from './helper.ts';

/* The stand-in itself is in dns-server.ts, free of the test helpers, so the browser tests start it too. */
export { DnsStandIn };

/** The listed domain as GET /api/v1/sso shows it. */
export async function emailDomainOf(app: FastifyInstance, cookie: string, domain: string) {
  const settings = await app.inject(jsonRequest('GET', '/api/v1/sso', undefined, cookie));
  expect(settings.statusCode, settings.body).toBe(200);
  const listed = (settings.json() as SsoSettings).emailDomains.find((entry) => entry.domain === domain);
  if (!listed) throw new Error(`${domain} is not listed`);
  return listed;
}

export function verifyEmailDomain(app: FastifyInstance, cookie: string, domain: string) {
  return app.inject(
    jsonRequest('POST', `/api/v1/sso/email-domains/${encodeURIComponent(domain)}/verify`, undefined, cookie),
  );
}

/** The super-admin publishes the record the page shows for a listed domain, then presses Verify: it must be verified. */
export async function proveEmailDomain(
  app: FastifyInstance,
  cookie: string,
  dns: DnsStandIn,
  domain: string,
) {
  const { record } = await emailDomainOf(app, cookie, domain);
  dns.publish(record.name, [record.value]);
  const verified = await verifyEmailDomain(app, cookie, domain);
  expect(verified.statusCode, verified.body).toBe(200);
  const settings = verified.json() as SsoSettings;
  expect(settings.emailDomains.find((entry) => entry.domain === domain)).toMatchObject({
    status: 'verified',
  });
  return settings;
}
