/**
 * The mixed load of the scale test and benchmark: each connection signs in as one of the given
 * users, then reads what the signed-in pages read (the account, the applications, the members, the
 * billing list) a few times with that session, and starts again. Every sign-in comes from a client address of
 * its own, as from many visitors behind the proxy.
 */
import autocannon, { type Context, type Request, type Result } from 'autocannon';
import type { Database } from '../src/db/client.ts';
import { newApplicationWithUsage, newDailyTransactions } from '../test/billing-fixtures.ts';
import { STRONG_PASSWORD } from '../test/fixtures.ts';
import { nextClientAddress, organizationOwner, type PortalDeployment } from './portal-deployment.ts';

/** What the signed-in pages read, in turn. */
export const MIXED_READS = [
  '/api/v1/accounts/me',
  '/api/v1/applications?limit=10',
  '/api/v1/members?limit=10',
  '/api/v1/transactions?page=1',
];
/**
 * Rounds of those reads per sign-in, as a visitor goes through a few pages once signed in: one
 * request in 13 is a sign-in, whose memory-hard password check costs as much as dozens of reads.
 */
export const READ_ROUNDS_PER_SIGN_IN = 3;
const ANSWER_TIMEOUT_SECONDS = 30;

export interface MixedLoadOptions {
  /** Where the load goes: the proxy, or one instance. */
  url: string;
  /** The portal's origin (PUBLIC_URL), which better-auth checks on a sign-in. */
  origin: string;
  /** Users who can sign in with STRONG_PASSWORD; connections take them in turn. */
  emails: readonly string[];
  connections: number;
  durationSeconds: number;
}

/** An answer that was not 2xx, or a request that got none, with when it ended. */
export interface Failure {
  at: number;
  status?: number;
  body?: string;
  error?: string;
}

export interface MixedLoad {
  result: Promise<Result & { failures: Failure[] }>;
  stop(): void;
}

/** A connection's session, from its last sign-in. */
interface LoadContext extends Context {
  cookie?: string;
}

function sessionCookieOf(setCookie: string | string[] | undefined): string | undefined {
  const cookies = (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []).map(
    (c) => c.split(';')[0],
  );
  return cookies.length > 0 ? cookies.join('; ') : undefined;
}

/** Starts the load; `result` answers when it has run its duration or was stopped. */
export function startMixedLoad({
  url,
  origin,
  emails,
  connections,
  durationSeconds,
}: MixedLoadOptions): MixedLoad {
  const failures: Failure[] = [];
  let nextUser = 0;
  const record = (status: number, body: string) => {
    if (status < 200 || status >= 300) failures.push({ at: Date.now(), status, body });
  };
  const signIn: Request = {
    method: 'POST',
    path: '/api/auth/sign-in/email',
    setupRequest: (request) => {
      const email = emails[nextUser % emails.length];
      nextUser += 1;
      return {
        ...request,
        headers: {
          ...request.headers,
          'content-type': 'application/json',
          'x-forwarded-for': nextClientAddress(),
        },
        body: JSON.stringify({ email, password: STRONG_PASSWORD }),
      };
    },
    onResponse: (status, body, context, headers) => {
      record(status, body);
      (context as LoadContext).cookie = status === 200 ? sessionCookieOf(headers['set-cookie']) : undefined;
    },
  };
  const reads: Request[] = Array.from({ length: READ_ROUNDS_PER_SIGN_IN }, () => MIXED_READS)
    .flat()
    .map((path) => ({
      method: 'GET',
      path,
      // Without a session (its sign-in failed) the connection signs in again instead.
      setupRequest: (request, context) => {
        const { cookie } = context as LoadContext;
        return cookie ? { ...request, headers: { ...request.headers, cookie } } : undefined;
      },
      onResponse: (status, body) => record(status, body),
    }));

  let instance: ReturnType<typeof autocannon> | undefined;
  const result = new Promise<Result & { failures: Failure[] }>((resolve, reject) => {
    instance = autocannon(
      {
        url,
        connections,
        duration: durationSeconds,
        headers: { origin },
        requests: [signIn, ...reads],
        // An answer this late counts as an error (a timeout); a slow one before it only raises the p99,
        // which is reported. On a busy shared machine a queue of 50 sign-ins can take seconds.
        timeout: ANSWER_TIMEOUT_SECONDS,
      },
      (error, outcome) => (error ? reject(error) : resolve({ ...outcome, failures })),
    );
    instance.on('reqError', (error) => failures.push({ at: Date.now(), error: error.message }));
  });
  return { result, stop: () => instance?.stop() };
}

/** What each load user's organisation holds, so that every read has rows to answer. */
const APPLICATIONS_PER_USER = 5;
const TRANSACTIONS_PER_USER = 20;

/**
 * `count` users for the load, each the owner of an organisation (signed up through the portal) with
 * a few applications and a page of ledger (written straight into `database`); answers their emails.
 */
export async function seedLoadUsers(deployment: PortalDeployment, database: Database, count: number) {
  const emails: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const email = `owner${index}@load.example.com`;
    const owner = await organizationOwner(deployment.url, deployment.url, email);
    const { organizationId } = await owner.call<{ organizationId: string }>('GET', '/api/v1/accounts/me');
    for (let app = 0; app < APPLICATIONS_PER_USER; app += 1) {
      await newApplicationWithUsage(database.db, organizationId, {
        plan: 'advance',
        billingCycle: '2025-05',
        mau: 100,
      });
    }
    await newDailyTransactions(database.db, organizationId, TRANSACTIONS_PER_USER);
    emails.push(email);
  }
  return emails;
}
