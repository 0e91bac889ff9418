/**
 * The production shape on one machine, for the scale test and benchmark: a throw-away PostgreSQL
 * cluster, N portal instances (the built server, apps/api/dist/server.js) on one database of it,
 * and the round-robin proxy in front, each in a process of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { INITIAL_SETUP, STRONG_PASSWORD, codeFromMail } from '../test/fixtures.ts';
import { freePort, startThrowawayCluster, type ThrowawayCluster } from './throwaway-postgres.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SERVER_ENTRY = path.join(REPO_ROOT, 'apps/api/dist/server.js');
const PROXY_ENTRY = path.join(REPO_ROOT, 'apps/api/scale/round-robin-proxy.ts');
const START_TIMEOUT_MS = 60_000;

/** What every instance must share (docs/deployment.md): one value each, whichever instance answers. */
export const SHARED_SECRETS = {
  AUTH_SECRET: 'scale-test-auth-secret-scale-test-auth-secret',
  OPERATOR_TOKEN: 'scale-test-operator-token',
  REGION_ADMIN_TOKEN: 'scale-test-region-admin-token',
  CARD_SANDBOX_SECRET_KEY: 'sk_sandbox_scaletestsecretkey0001',
  CARD_SANDBOX_PUBLISHABLE_KEY: 'pk_sandbox_scaletestpublishable01',
};

/** Answers once `url` answers 200, or throws past the deadline or when `child` exits first. */
async function untilHealthy(child: ChildProcess, url: string, what: string) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${what} did not start within ${START_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface PortalInstance {
  name: string;
  url: string;
  process: ChildProcess;
}

export interface PortalDeployment {
  cluster: ThrowawayCluster;
  databaseUrl: string;
  /** The proxy's address: the portal's public URL. */
  url: string;
  instances: PortalInstance[];
  /** A file per instance (stdout and stderr), read when something fails. */
  logOf(instance: PortalInstance): string;
  /** Another instance on `databaseUrl` (another database of the cluster), outside the proxy. */
  startInstance(name: string, databaseUrl: string): Promise<PortalInstance>;
  stop(): Promise<void>;
}

export interface DeploymentOptions {
  instances: number;
  /** Configuration on top of the deployment's own, for every instance. */
  env?: Record<string, string>;
}

/**
 * Starts the cluster, `instances` portals on one new database (one after the other, so the first
 * applies the migrations alone) and the proxy over them. `stop` ends them all and removes the
 * cluster's files.
 */
export async function startPortalDeployment({
  instances: count,
  env = {},
}: DeploymentOptions): Promise<PortalDeployment> {
  if (!fs.existsSync(SERVER_ENTRY))
    throw new Error(`${SERVER_ENTRY} is missing: run npm run build -w apps/api first.`);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-scale-'));
  const children: ChildProcess[] = [];
  const logs = new Map<string, string>();
  const cluster = await startThrowawayCluster();
  const stop = async () => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }),
    );
    await cluster.remove();
    fs.rmSync(workDir, { recursive: true, force: true });
  };
  try {
    const databaseUrl = await cluster.createDatabase('portal');
    const proxyPort = await freePort();
    const url = `http://127.0.0.1:${proxyPort}`;

    const startInstance = async (name: string, instanceDatabaseUrl: string): Promise<PortalInstance> => {
      const port = await freePort();
      const logFile = path.join(workDir, `${name}.log`);
      const log = fs.openSync(logFile, 'a');
      const child = spawn(process.execPath, [SERVER_ENTRY], {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          HOST: '127.0.0.1',
          PORT: String(port),
          PUBLIC_URL: url,
          DATABASE_URL: instanceDatabaseUrl,
          PORTAL_DATA_DIR: path.join(workDir, name),
          // The proxy (and this test, calling an instance directly) name the client address.
          TRUST_PROXY: '127.0.0.1',
          LOG_LEVEL: 'warn',
          SMTP_URL: '',
          BILLING_SCHEDULE_SECONDS: '0',
          ...SHARED_SECRETS,
          ...env,
        },
        stdio: ['ignore', log, log],
      });
      fs.closeSync(log);
      children.push(child);
      logs.set(name, logFile);
      const instanceUrl = `http://127.0.0.1:${port}`;
      await untilHealthy(child, `${instanceUrl}/api/health`, `portal instance ${name}`);
      return { name, url: instanceUrl, process: child };
    };

    const instances: PortalInstance[] = [];
    for (let index = 0; index < count; index += 1) {
      instances.push(await startInstance(String.fromCharCode(65 + index), databaseUrl));
    }

    const proxy = spawn(
      process.execPath,
      ['--import', 'tsx', PROXY_ENTRY, String(proxyPort), ...instances.map((instance) => instance.url)],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(proxy);
    await new Promise<void>((resolve, reject) => {
      proxy.once('exit', (code) => reject(new Error(`the proxy exited with ${code}`)));
      readline.createInterface({ input: proxy.stdout! }).on('line', (line) => {
        if (line.startsWith('listening ')) resolve();
      });
    });

    return {
      cluster,
      databaseUrl,
      url,
      instances,
      logOf: (instance) => fs.readFileSync(logs.get(instance.name)!, 'utf8'),
      startInstance,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

let lastClientAddress = 0;

/**
 * A client address of its own (TEST-NET and private ranges) for X-Forwarded-For: the per-IP limits
 * count each caller apart, as they would real visitors.
 */
export function nextClientAddress(): string {
  lastClientAddress += 1;
  const n = lastClientAddress;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export interface Answer {
  status: number;
  text: string;
  headers: Headers;
}

/**
 * A browser-like client of the portal at `base` (the proxy or one instance), with the portal's
 * origin, keeping its session cookie. `request` answers whatever came; `call` throws on a non-2xx.
 */
export function portalClient(base: string, origin: string, { cookie = '', clientAddress = '' } = {}) {
  const state = { cookie };
  const request = async (method: string, url: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: {
        origin,
        'x-forwarded-for': clientAddress || nextClientAddress(),
        ...(state.cookie ? { cookie: state.cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.getSetCookie().map((c) => c.split(';')[0]);
    if (setCookie.length > 0) state.cookie = setCookie.join('; ');
    return { status: response.status, text: await response.text(), headers: response.headers };
  };
  const call = async <T = unknown>(method: string, url: string, body?: unknown): Promise<T> => {
    const { status, text } = await request(method, url, body);
    if (status < 200 || status >= 300) throw new Error(`${method} ${base}${url} answered ${status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return { request, call, state };
}

export type PortalClient = ReturnType<typeof portalClient>;

/** Signs `email` up, confirms it from the dev mailbox and signs in: a client holding the session. */
export async function signedUpUser(base: string, origin: string, email: string): Promise<PortalClient> {
  const client = portalClient(base, origin);
  await client.call('POST', '/api/auth/sign-up/email', {
    email,
    password: STRONG_PASSWORD,
    name: email.split('@')[0],
  });
  const [mail] = await client.call<{ text: string }[]>(
    'GET',
    `/dev/mailbox/messages?to=${encodeURIComponent(email)}`,
  );
  await client.call('POST', '/api/auth/email-otp/verify-email', {
    email,
    otp: codeFromMail(mail!.text, 'confirmation_code'),
  });
  await client.call('POST', '/api/auth/sign-in/email', { email, password: STRONG_PASSWORD });
  return client;
}

/** A new organisation's owner (signed up, its organisation set up), signed in. */
export async function organizationOwner(base: string, origin: string, email: string): Promise<PortalClient> {
  const owner = await signedUpUser(base, origin, email);
  await owner.call('PUT', '/api/v1/accounts', INITIAL_SETUP);
  return owner;
}

/** The mail to `email` whose text matches `pattern`, waited for (mail goes out through the job queue). */
async function mailTo(client: PortalClient, email: string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mails = await client.call<{ text: string }[]>(
      'GET',
      `/dev/mailbox/messages?to=${encodeURIComponent(email)}`,
    );
    const found = mails.find((mail) => pattern.test(mail.text));
    if (found) return found.text;
    if (Date.now() > deadline) throw new Error(`no mail to ${email} matching ${pattern}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A developer `owner` invited, joined through the mailed link: a client holding the new member's session. */
export async function invitedMember(owner: PortalClient, base: string, origin: string, email: string) {
  await owner.call('POST', '/api/v1/invitations', {
    emails: [email],
    roleIds: ['portal.developer'],
    applicationScopes: null,
  });
  const link = /\/invitation-signup\?code=([A-Za-z0-9_-]+)/;
  const code = link.exec(await mailTo(owner, email, link))![1]!;
  const member = portalClient(base, origin);
  const { invitationId } = await member.call<{ invitationId: string }>('POST', '/api/invitations/verify', {
    code,
  });
  const confirmed = await member.call<{ member: { id: string } }>(
    'POST',
    `/api/invitations/${invitationId}/confirm`,
    {
      displayName: email.split('@')[0],
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
      code,
    },
  );
  return Object.assign(member, { memberId: confirmed.member.id });
}
