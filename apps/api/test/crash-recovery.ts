import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Application, ListApplicationsResponse } from '@portal/contracts';
import { expect } from 'vitest';
import { INITIAL_SETUP, STRONG_PASSWORD, codeFromMail } from './fixtures.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SERVER_ENTRY = path.join(REPO_ROOT, 'apps/api/src/server.ts');
/** The recovery the server is held to: active within 2 minutes of the restart. */
export const RECOVERY_BOUND_MS = 120_000;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The real server (sources through tsx) in a child process, answered once it is healthy. */
async function startServer(port: number, dataDir: string, databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_ENTRY], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PORTAL_DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: 'crash-test-secret-crash-test-secret-0123',
      LOG_LEVEL: 'error',
      RATE_LIMIT_MAX_PER_IP: '10000',
      RATE_LIMIT_MAIL_PER_IP: '10000',
      SMTP_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return child;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the server did not start within 60 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A browser-like client of the portal on its origin, keeping the session cookie. */
function client(port: number) {
  const base = `http://127.0.0.1:${port}`;
  let cookie = '';
  return async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { origin: base, cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.getSetCookie().map((c) => c.split(';')[0]);
    if (setCookie.length > 0) cookie = setCookie.join('; ');
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
}

/**
 * Creates three applications, kills the server with SIGKILL while it provisions them, starts it
 * again on the same data and waits for them to become active; fails past RECOVERY_BOUND_MS.
 */
export async function provisioningSurvivesSigkill(databaseUrl = '') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-crash-'));
  const port = await freePort();
  const servers: ChildProcess[] = [];
  try {
    servers.push(await startServer(port, dataDir, databaseUrl));
    const call = client(port);
    const email = 'crash@acme.io';
    await call('POST', '/api/auth/sign-up/email', { email, password: STRONG_PASSWORD, name: 'crash' });
    const [mail] = (await call('GET', `/dev/mailbox/messages?to=${encodeURIComponent(email)}`)) as { text: string }[];
    await call('POST', '/api/auth/email-otp/verify-email', { email, otp: codeFromMail(mail!.text, 'confirmation_code') });
    await call('POST', '/api/auth/sign-in/email', { email, password: STRONG_PASSWORD });
    await call('PUT', '/api/v1/accounts', INITIAL_SETUP);
    const created: string[] = [];
    for (const name of ['First', 'Second', 'Third']) {
      const [app] = (await call('POST', '/api/v1/applications', { name, plan: 'advance', region: 'EU' })) as Application[];
      created.push(app!.applicationId);
    }
    // The workers take the jobs at once; the region reports the networks active only after 3 s.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = (await call('GET', '/api/v1/applications?limit=10')) as ListApplicationsResponse;
    expect(before.data.map((app) => app.state)).toEqual(['initializing', 'initializing', 'initializing']);

    const first = servers[0]!;
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;
    servers.push(await startServer(port, dataDir, databaseUrl));
    const restartedAt = Date.now();

    let after: ListApplicationsResponse;
    for (;;) {
      after = (await call('GET', '/api/v1/applications?limit=10')) as ListApplicationsResponse;
      if (after.data.every((app) => app.state === 'active')) break;
      if (Date.now() - restartedAt > RECOVERY_BOUND_MS) {
        throw new Error(`still ${after.data.map((app) => app.state).join(', ')} two minutes after the restart`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(after.total).toBe(3);
    expect(after.data.map((app) => app.applicationId).sort()).toEqual([...created].sort());
    expect(new Set(after.data.map((app) => app.networkId)).size).toBe(3);
    return Date.now() - restartedAt;
  } finally {
    for (const server of servers) server.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
