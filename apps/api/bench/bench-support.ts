/** What the benchmarks share: the portal's API as the web app calls it, and an autocannon run. */
import autocannon, { type Result } from 'autocannon';
import { INITIAL_SETUP, STRONG_PASSWORD, TEST_ORIGIN, codeFromMail } from '../test/fixtures.ts';

export const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
export const CONNECTIONS = 10;

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** The portal's API as the web app calls it: at `base`, from the portal's own origin. */
export function client(base: string) {
  const call = async (method: string, url: string, body?: unknown, cookie?: string) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: {
        // The portal's configured origin, whatever port the bench listens on.
        origin: TEST_ORIGIN,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(cookie ? { cookie } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
    return response;
  };
  const signIn = async (email: string) => {
    const response = await call('POST', '/api/auth/sign-in/email', { email, password: STRONG_PASSWORD });
    return response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  };
  return { call, signIn };
}

export async function signedInOwner(base: string, email: string) {
  const { call, signIn } = client(base);
  await call('POST', '/api/auth/sign-up/email', { email, password: STRONG_PASSWORD, name: 'bench' });
  const mails = (await (await call('GET', `/dev/mailbox/messages?to=${encodeURIComponent(email)}`)).json()) as { text: string }[];
  const otp = codeFromMail(mails[0]?.text ?? '', 'confirmation_code');
  await call('POST', '/api/auth/email-otp/verify-email', { email, otp });
  const cookie = await signIn(email);
  await call('PUT', '/api/v1/accounts', INITIAL_SETUP, cookie);
  return cookie;
}

export async function load(url: string, headers: Record<string, string> = {}): Promise<Result> {
  // A short unrecorded run first, so JIT warm-up and pool growth are not measured.
  await autocannon({ url, connections: CONNECTIONS, duration: 2, workers: 1, headers });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, workers: 1, headers });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return result;
}

