import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { STRONG_PASSWORD, expectApiError, jsonRequest, signUpVerifiedUser } from './helper.ts';
import { usePortalInstances, type PortalInstance } from './instances.ts';
import { redisAnswers, redisStoreEnv } from './redis.ts';

/*
 * Two portal instances on one PostgreSQL database, as behind a load balancer: every limit holds
 * for the client whichever instance answers each request, counted in the database or in Redis
 * (decision 033). Counted per process, each instance would let through its own full allowance.
 */
const DEFAULTS = loadConfig({}).rateLimit;
const redis = await redisAnswers();

/** The portal's own limits (docs/security.md), not the tests' practically unlimited ones. */
const defaultLimits = {
  RATE_LIMIT_MAX_PER_IP: String(DEFAULTS.maxPerIp),
  RATE_LIMIT_MAX_PER_ACCOUNT: String(DEFAULTS.maxPerAccount),
  RATE_LIMIT_MAIL_PER_ADDRESS: String(DEFAULTS.mailPerAddress),
  RATE_LIMIT_MAIL_PER_IP: String(DEFAULTS.mailPerIp),
};

let nextAddress = 0;
/** A client address no other test uses (TEST-NET-3, RFC 5737). */
function freshAddress() {
  nextAddress += 1;
  return `203.0.113.${nextAddress}`;
}

function from(remoteAddress: string, request: InjectOptions): InjectOptions {
  return { ...request, remoteAddress };
}

const wrongSignIn = (email: string) =>
  jsonRequest('POST', '/api/auth/sign-in/email', { email, password: 'Wr0ng!Password-x' });

it('counts with the numbers docs/security.md gives', () => {
  expect(DEFAULTS).toMatchObject({ maxPerIp: 30, maxPerAccount: 10, mailPerAddress: 5, mailPerIp: 50 });
});

describe.each([
  { store: 'the database', storeEnv: (): Record<string, string> => ({}), skip: false },
  { store: 'Redis', storeEnv: redisStoreEnv, skip: !redis },
])('two instances counting in $store', ({ storeEnv, skip }) => {
  if (skip) {
    it.skip('needs a Redis server at TEST_REDIS_URL');
    return;
  }
  const instances = usePortalInstances(2, () => ({ ...storeEnv(), ...defaultLimits }));
  /** The instance a load balancer sends the request number `turn` to. */
  const roundRobin = (turn: number): PortalInstance => instances[turn % instances.length]!;

  it(`refuses the ${DEFAULTS.maxPerIp + 1}st wrong sign-in from one IP whichever instance answers`, async () => {
    const address = freshAddress();
    for (let turn = 0; turn < DEFAULTS.maxPerIp; turn += 1) {
      const response = await roundRobin(turn).app.inject(from(address, wrongSignIn(`ip-${turn}@acme.io`)));
      expect(response.statusCode, response.body).toBe(401);
    }
    for (const instance of instances) {
      const refused = await instance.app.inject(from(address, wrongSignIn('ip-last@acme.io')));
      expectApiError(refused, 429, 'RATE_LIMITED');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    const other = await roundRobin(1).app.inject(from(freshAddress(), wrongSignIn('ip-elsewhere@acme.io')));
    expect(other.statusCode).toBe(401);
  });

  it('counts every one of many sign-ins sent at once to both instances', async () => {
    const address = freshAddress();
    const attempts = DEFAULTS.maxPerIp + 10;
    const responses = await Promise.all(
      Array.from({ length: attempts }, (_, turn) =>
        roundRobin(turn).app.inject(from(address, wrongSignIn(`burst-${turn}@acme.io`))),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(DEFAULTS.maxPerIp);
    expect(statuses.filter((status) => status === 429)).toHaveLength(attempts - DEFAULTS.maxPerIp);
  });

  it('locks an address out of an account after its failures on both instances, and lets the owner in', async () => {
    const email = 'owner@acme.io';
    await signUpVerifiedUser(instances[0]!.app, email);
    const stranger = freshAddress();
    for (let turn = 0; turn < DEFAULTS.maxPerAccount; turn += 1) {
      expect((await roundRobin(turn).app.inject(from(stranger, wrongSignIn(email)))).statusCode).toBe(401);
    }
    const right = jsonRequest('POST', '/api/auth/sign-in/email', { email, password: STRONG_PASSWORD });
    for (const instance of instances) expectApiError(await instance.app.inject(from(stranger, right)), 429);

    const owner = await roundRobin(1).app.inject(from(freshAddress(), right));
    expect(owner.statusCode, owner.body).toBe(200);
  });

  it(`sends one address at most ${DEFAULTS.mailPerAddress} reset mails an hour, whichever instance is asked`, async () => {
    const email = 'reset@acme.io';
    const request = jsonRequest('POST', '/api/auth/email-otp/request-password-reset', { email });
    for (let turn = 0; turn < DEFAULTS.mailPerAddress; turn += 1) {
      const response = await roundRobin(turn).app.inject(from(freshAddress(), request));
      expect(response.statusCode, response.body).toBe(200);
    }
    for (const instance of instances) {
      const refused = await instance.app.inject(from(freshAddress(), request));
      expectApiError(refused, 429, 'RATE_LIMITED');
      // The hourly window: the wait is minutes, not the sign-in window's seconds.
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(DEFAULTS.windowSeconds);
    }
  });
});
