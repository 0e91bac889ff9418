import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  type AccountStatus,
  type Application,
  type ListApplicationsResponse,
  type PaymentGatewayConfiguration,
  type PaymentProfile,
  type RunBillingResponse,
  type TopUpResponse,
  type TransactionStatus,
} from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { EXIT_FAILED, EXIT_OK, main as operatorCli } from '../src/cli/portal-cli.ts';
import { openDatabase, type Db } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { monthlyRunService } from '../src/modules/billing/monthly-run.service.ts';
import {
  FLAT_RATE_CONTRACT,
  FLAT_RATE_USAGE,
  newApplicationWithUsage,
  newOrganization,
  type OrganizationValues,
} from './billing-fixtures.ts';
import { INITIAL_SETUP, STRONG_PASSWORD, codeFromMail } from './fixtures.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SERVER_ENTRY = path.join(REPO_ROOT, 'apps/api/src/server.ts');
const COMMIT_REPORTER = path.join(REPO_ROOT, 'apps/api/test/commit-reporter.ts');
/** The line commit-reporter.ts writes for each committed transaction (importing it here would patch this process). */
const COMMITTED_LINE = 'transaction committed';
/** The recovery the server is held to: active within 2 minutes of the restart. */
export const RECOVERY_BOUND_MS = 120_000;

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface ServerOptions {
  env?: Record<string, string>;
  /** Preloads commit-reporter.ts: the server's stdout (piped) has a line for each committed transaction. */
  reportCommits?: boolean;
  /** Pipes the server's stdout (its log at LOG_LEVEL) to the test, which must read it. */
  pipeStdout?: boolean;
}

/** The real server (sources through tsx) in a child process, answered once it is healthy. */
export async function startServer(
  port: number,
  dataDir: string,
  databaseUrl: string,
  { env = {}, reportCommits = false, pipeStdout = reportCommits }: ServerOptions = {},
): Promise<ChildProcess> {
  const preload = reportCommits ? ['--import', COMMIT_REPORTER] : [];
  const child = spawn(process.execPath, ['--import', 'tsx', ...preload, SERVER_ENTRY], {
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
      ...env,
    },
    stdio: ['ignore', pipeStdout ? 'pipe' : 'ignore', 'inherit'],
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

/** Sends the server a signal and answers once it has exited. */
export async function stopServer(server: ChildProcess, signal: NodeJS.Signals) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill(signal);
  await exited;
}

/**
 * A browser-like client of the portal on its origin, keeping the session cookie: answers the body
 * of a successful answer and throws on any other; `request` answers the status and text whatever
 * they are.
 */
function client(port: number) {
  const base = `http://127.0.0.1:${port}`;
  let cookie = '';
  const request = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: {
        origin: base,
        cookie,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.getSetCookie().map((c) => c.split(';')[0]);
    if (setCookie.length > 0) cookie = setCookie.join('; ');
    return { status: response.status, text: await response.text() };
  };
  const call = async (method: string, url: string, body?: unknown) => {
    const { status, text } = await request(method, url, body);
    if (status >= 300) throw new Error(`${method} ${url} answered ${status}: ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
  return Object.assign(call, { request });
}

/** Signs up `email`, confirms it from the dev mailbox, signs in and sets the organisation up (INITIAL_SETUP). */
async function signUpOwner(call: ReturnType<typeof client>, email: string) {
  await call('POST', '/api/auth/sign-up/email', {
    email,
    password: STRONG_PASSWORD,
    name: email.split('@')[0],
  });
  const [mail] = (await call('GET', `/dev/mailbox/messages?to=${encodeURIComponent(email)}`)) as {
    text: string;
  }[];
  await call('POST', '/api/auth/email-otp/verify-email', {
    email,
    otp: codeFromMail(mail!.text, 'confirmation_code'),
  });
  await call('POST', '/api/auth/sign-in/email', { email, password: STRONG_PASSWORD });
  await call('PUT', '/api/v1/accounts', INITIAL_SETUP);
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
    await signUpOwner(call, 'crash@acme.io');
    const created: string[] = [];
    for (const name of ['First', 'Second', 'Third']) {
      const [app] = (await call('POST', '/api/v1/applications', {
        name,
        plan: 'advance',
        region: 'EU',
      })) as Application[];
      created.push(app!.applicationId);
    }
    // The workers take the jobs at once; the region reports the networks active only after 3 s.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = (await call('GET', '/api/v1/applications?limit=10')) as ListApplicationsResponse;
    expect(before.data.map((app) => app.state)).toEqual(['initializing', 'initializing', 'initializing']);

    await stopServer(servers[0]!, 'SIGKILL');
    servers.push(await startServer(port, dataDir, databaseUrl));
    const restartedAt = Date.now();

    let after: ListApplicationsResponse;
    for (;;) {
      after = (await call('GET', '/api/v1/applications?limit=10')) as ListApplicationsResponse;
      if (after.data.every((app) => app.state === 'active')) break;
      if (Date.now() - restartedAt > RECOVERY_BOUND_MS) {
        throw new Error(
          `still ${after.data.map((app) => app.state).join(', ')} two minutes after the restart`,
        );
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

const BILLING_CYCLE = '2025-03';
const OPERATOR_TOKEN = 'operator-token-of-the-crash-test';
/** Enough PAYG organisations that most of the run is still ahead when the server is killed. */
const PAYG_ORGANIZATIONS = 200;
const FLAT_RATE_ORGANIZATIONS = 4;
/** How many organisations the first run bills (one committed transaction each) before the server is killed. */
const BILLED_BEFORE_KILL = 20;

/** What billing the month comes to for an organisation by the billing rules, in cents. */
interface ExpectedBill {
  chargeCents: number;
  taxCents: number;
  creditCents: number;
  paidCents: number;
  status: TransactionStatus;
  accountStatus: AccountStatus;
  lines: number;
}

interface BillingProfile {
  values: OrganizationValues;
  applications: Omit<Parameters<typeof newApplicationWithUsage>[2], 'billingCycle'>[];
  bill: ExpectedBill;
}

const PAYG_BILL = { taxCents: 0, creditCents: 0, lines: 1 };

const BILLING_PROFILES = {
  // 100 MAU × 0.09 = 9.00, paid from the balance.
  covered: {
    values: { balanceCents: 10_000 },
    applications: [{ plan: 'advance', mau: 100 }],
    bill: { ...PAYG_BILL, chargeCents: 900, paidCents: 900, status: 'paid', accountStatus: 'active' },
  },
  // The balance pays 3.00 of the 9.00; the rest stays due and the account becomes inactive.
  short: {
    values: { balanceCents: 300 },
    applications: [{ plan: 'advance', mau: 100 }],
    bill: { ...PAYG_BILL, chargeCents: 900, paidCents: 300, status: 'open', accountStatus: 'inactive' },
  },
  empty: {
    values: { balanceCents: 0 },
    applications: [{ plan: 'advance', mau: 100 }],
    bill: { ...PAYG_BILL, chargeCents: 900, paidCents: 0, status: 'open', accountStatus: 'inactive' },
  },
  // Set up on 10 March 10:00: 16 of March's 22 billable days are trial, 72.00 of the 99.00 credited.
  trial: {
    values: { balanceCents: 10_000, trialEndAt: new Date('2025-03-25T10:00:00Z') },
    applications: [{ plan: 'advance', mau: 1100 }],
    bill: {
      ...PAYG_BILL,
      chargeCents: 9900,
      creditCents: 7200,
      paidCents: 2700,
      status: 'paid',
      accountStatus: 'active',
    },
  },
  // 499.00 licence + 200 MAU above it × 0.09 + 100.00 support = 617.00, SG tax 9 % = 55.53; open, the balance untouched.
  flatRate: {
    values: { ...FLAT_RATE_CONTRACT, balanceCents: 100_000 },
    applications: FLAT_RATE_USAGE,
    bill: {
      chargeCents: 67_253,
      taxCents: 5553,
      creditCents: 0,
      paidCents: 0,
      status: 'open',
      accountStatus: 'active',
      lines: 3,
    },
  },
} satisfies Record<string, BillingProfile>;

type ProfileName = keyof typeof BILLING_PROFILES;
const PAYG_PROFILES: ProfileName[] = ['covered', 'short', 'empty', 'trial'];

interface OrganizationToBill {
  id: string;
  profile: ProfileName;
}

/** Seeds the organisations straight into the database, closed again before a server opens it. */
async function seedOrganizationsToBill(dataDir: string, databaseUrl: string): Promise<OrganizationToBill[]> {
  const profiles = [
    ...Array.from({ length: PAYG_ORGANIZATIONS }, (_, index) => PAYG_PROFILES[index % PAYG_PROFILES.length]!),
    ...Array.from({ length: FLAT_RATE_ORGANIZATIONS }, (): ProfileName => 'flatRate'),
  ];
  const database = await openDatabase({ databaseUrl: databaseUrl || undefined, dataDir });
  try {
    // One transaction: a few hundred organisations are written in a moment.
    return await database.db.transaction(async (tx) => {
      const organizations = [];
      for (const profile of profiles) {
        const { values, applications } = BILLING_PROFILES[profile];
        const id = await newOrganization(tx, values);
        for (const usage of applications) {
          await newApplicationWithUsage(tx, id, { ...usage, billingCycle: BILLING_CYCLE });
        }
        organizations.push({ id, profile });
      }
      return organizations;
    });
  } finally {
    await database.close();
  }
}

/** The operator CLI run as an operator runs it, against the portal at `portalUrl`. */
async function operator(portalUrl: string, argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await operatorCli(argv, {
    env: { PORTAL_URL: portalUrl, OPERATOR_TOKEN },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

/**
 * Each organisation's ledger, invoice lines, balance movements, balance and status as billed: every
 * transaction with the credit it names and its invoice's lines, every movement with whether it is
 * the service charge's.
 */
async function billsOf(db: Db, organizations: OrganizationToBill[]) {
  const [rows, ledger, lines, movements] = await Promise.all([
    db.select().from(schema.organization),
    db.select().from(schema.ledgerTransaction),
    db.select().from(schema.invoiceLine),
    db.select().from(schema.balanceMovement),
  ]);
  const byId = new Map(ledger.map((row) => [row.id, row]));
  return Object.fromEntries(
    organizations.map(({ id }) => {
      const organization = rows.find((row) => row.id === id);
      const transactions = ledger
        .filter((row) => row.organizationId === id)
        .sort((a, b) => a.type.localeCompare(b.type));
      const charge = transactions.find((row) => row.type === 'service_charge');
      const linesOf = (transactionId: number) => lines.filter((line) => line.transactionId === transactionId);
      return [
        id,
        {
          transactions: transactions.map((row) => ({
            type: row.type,
            billingCycle: row.billingCycle,
            status: row.status,
            amountCents: row.amountCents,
            taxAmountCents: row.taxAmountCents,
            paymentAmountCents: row.paymentAmountCents,
            creditCents: row.creditTransactionId
              ? (byId.get(row.creditTransactionId)?.amountCents ?? null)
              : 0,
            lines: linesOf(row.id).length,
            linesCents: linesOf(row.id).reduce((total, line) => total + line.amountCents, 0),
          })),
          movements: movements
            .filter((movement) => movement.organizationId === id)
            .map((movement) => ({
              amountCents: movement.amountCents,
              balanceAfterCents: movement.balanceAfterCents,
              ofCharge: movement.transactionId === charge?.id,
            })),
          balanceCents: organization?.balanceCents,
          accountStatus: organization?.accountStatus,
          inactiveNoticeOwedFor: organization?.inactiveNoticeTransactionId,
        },
      ];
    }),
  );
}

/** The same, as billing each organisation exactly once comes to by the rules. */
function billedOnce(organizations: OrganizationToBill[]): Awaited<ReturnType<typeof billsOf>> {
  return Object.fromEntries(
    organizations.map(({ id, profile }) => {
      const { values, bill } = BILLING_PROFILES[profile];
      const balanceCents = values.balanceCents - bill.paidCents;
      const charge = {
        type: 'service_charge' as const,
        billingCycle: BILLING_CYCLE,
        status: bill.status,
        amountCents: bill.chargeCents,
        taxAmountCents: bill.taxCents,
        paymentAmountCents: bill.paidCents,
        creditCents: bill.creditCents,
        lines: bill.lines,
        linesCents: bill.chargeCents - bill.taxCents,
      };
      const trialCredit = {
        type: 'service_credit' as const,
        billingCycle: BILLING_CYCLE,
        status: 'paid' as const,
        amountCents: bill.creditCents,
        taxAmountCents: 0,
        paymentAmountCents: 0,
        creditCents: 0,
        lines: 0,
        linesCents: 0,
      };
      return [
        id,
        {
          transactions: bill.creditCents > 0 ? [charge, trialCredit] : [charge],
          movements:
            bill.paidCents > 0
              ? [{ amountCents: -bill.paidCents, balanceAfterCents: balanceCents, ofCharge: true }]
              : [],
          balanceCents,
          accountStatus: bill.accountStatus,
          // The notice of each account made inactive, by either run, is queued.
          inactiveNoticeOwedFor: null,
        },
      ];
    }),
  );
}

/**
 * Seeds PAYG organisations (balances that cover the month, that cover part of it, empty, in trial)
 * and flat-rate ones, has the operator CLI run the month's billing on the real server, kills the
 * server with SIGKILL right after the run's BILLED_BEFORE_KILL-th commit (while it bills the next
 * organisations), starts it again on the same data and runs the billing again: every
 * organisation must then be billed exactly once, as the rules say, whichever run billed it, and every
 * account made inactive must have its notice queued.
 */
export async function billingRunSurvivesSigkill(databaseUrl = '') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-billing-crash-'));
  const port = await freePort();
  const portalUrl = `http://127.0.0.1:${port}`;
  // The schedule stays off: the month is billed by the operator's runs alone.
  const env = { OPERATOR_TOKEN, BILLING_SCHEDULE_SECONDS: '0' };
  const billMonth = ['billing', 'run', '--month', BILLING_CYCLE, '--json'];
  const servers: ChildProcess[] = [];
  try {
    const organizations = await seedOrganizationsToBill(dataDir, databaseUrl);
    const first = await startServer(port, dataDir, databaseUrl, { env, reportCommits: true });
    servers.push(first);
    // From the run on, each committed transaction is an organisation billed.
    let committed = 0;
    let killPoint = () => {};
    const killPointReached = new Promise<void>((resolve) => (killPoint = resolve));
    readline.createInterface({ input: first.stdout! }).on('line', (line) => {
      if (line !== COMMITTED_LINE) return;
      committed += 1;
      if (committed >= BILLED_BEFORE_KILL) killPoint();
    });
    const killedRun = operator(portalUrl, billMonth);
    const ended = await Promise.race([killPointReached.then(() => false), killedRun.then(() => true)]);
    if (ended) throw new Error(`the billing run ended before the kill: ${(await killedRun).stderr}`);
    await stopServer(first, 'SIGKILL');
    const billedBeforeKill = committed;
    // The operator is told the portal went away, with no answer.
    expect(await killedRun).toMatchObject({ code: EXIT_FAILED, stdout: '' });
    // On the embedded database the dead server's lock is left behind, and the restart takes it over.
    const lockHolder = () => fs.readFileSync(path.join(dataDir, 'portal.lock'), 'utf8');
    if (!databaseUrl) expect(lockHolder()).toBe(String(first.pid));
    const restarted = await startServer(port, dataDir, databaseUrl, { env });
    servers.push(restarted);
    if (!databaseUrl) expect(lockHolder()).toBe(String(restarted.pid));
    const rerun = await operator(portalUrl, billMonth);
    expect(rerun.code, rerun.stderr).toBe(EXIT_OK);
    const answer = JSON.parse(rerun.stdout) as RunBillingResponse;
    expect(answer.failed).toEqual([]);
    // The kill fell inside the run: the organisations billed before it are not billed again, some
    // were left for the second run, and the two runs together billed every one once.
    expect(answer.alreadyBilled.length).toBeGreaterThanOrEqual(billedBeforeKill);
    expect(answer.billed.length).toBeGreaterThan(0);
    const billedAfterRestart = answer.billed.map((billed) => billed.organizationId);
    expect([...answer.alreadyBilled, ...billedAfterRestart].sort()).toEqual(
      organizations.map(({ id }) => id).sort(),
    );
    await stopServer(restarted, 'SIGTERM');

    const database = await openDatabase({ databaseUrl: databaseUrl || undefined, dataDir });
    try {
      expect(await billsOf(database.db, organizations)).toEqual(billedOnce(organizations));
    } finally {
      await database.close();
    }
  } finally {
    for (const server of servers) server.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The sandbox's keys, given to every server of the data so the test can read the sandbox's charges. */
const CARD_SANDBOX_KEYS = {
  CARD_SANDBOX_SECRET_KEY: 'sk_sandbox_payments-crash-test-secret',
  CARD_SANDBOX_PUBLISHABLE_KEY: 'pk_sandbox_payments-crash-test-publishable',
};
const TEST_CARDS = { visa: '4242424242424242', declined: '4000000000000002' };
/** Months billed before the pays: an invoice of USD 14.00 each (100 MAU on max), open on an empty balance. */
const OPEN_INVOICE_CYCLES = ['2025-01', '2025-02', '2025-03', '2025-04', '2025-05', '2025-06'];
/** How many pays of each invoice are sent at once (double clicks and more): one may charge. */
const PAYS_PER_INVOICE = 4;
/** The top-ups sent with the pays, in USD. */
const TOP_UP_AMOUNTS = [10, 25, 40, 60, 100, 150, 250, 400, 700, 1000, 1500, 2500];
/** The succeeded card charge on whose commit the server is killed, before the portal settles it. */
const KILLED_AT_CHARGE = 6;
/** How long the restarted server is given to report its start-up reconciliation; the records tell the rest. */
const RECONCILIATION_WAIT_MS = 30_000;

/** A card's single-use token from the sandbox's tokeniser, as the card form gets it (no cookie). */
async function cardToken(port: number, configuration: PaymentGatewayConfiguration, number: string) {
  const response = await fetch(new URL(configuration.tokenizeUrl ?? '', `http://127.0.0.1:${port}`), {
    method: 'POST',
    headers: { authorization: `Bearer ${configuration.publicKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ number, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`the tokeniser answered ${response.status}: ${text}`);
  return (JSON.parse(text) as { id: string }).id;
}

/** Bills each of OPEN_INVOICE_CYCLES for the organisation on an empty balance; answers the open invoices' ids. */
async function billOpenInvoices(dataDir: string, databaseUrl: string, organizationId: string) {
  const database = await openDatabase({ databaseUrl: databaseUrl || undefined, dataDir });
  try {
    const billing = monthlyRunService({ db: database.db, productName: 'Social' });
    const invoiceIds: number[] = [];
    for (const cycle of OPEN_INVOICE_CYCLES) {
      await newApplicationWithUsage(database.db, organizationId, {
        plan: 'max',
        billingCycle: cycle,
        mau: 100,
      });
      const { billed } = await billing.runMonthlyBilling({ cycle, organizationId });
      expect(billed).toMatchObject([{ status: 'open', dueCents: 1400 }]);
      invoiceIds.push(billed[0]!.transactionId);
    }
    return invoiceIds;
  } finally {
    await database.close();
  }
}

/** The organisation's payment attempts, ledger, balance movements and balance, read after a clean stop. */
async function paymentRecordsOf(dataDir: string, databaseUrl: string, organizationId: string) {
  const database = await openDatabase({ databaseUrl: databaseUrl || undefined, dataDir });
  try {
    const { db } = database;
    const [attempts, ledger, movements, [organization]] = await Promise.all([
      db.select().from(schema.paymentAttempt).where(eq(schema.paymentAttempt.organizationId, organizationId)),
      db
        .select()
        .from(schema.ledgerTransaction)
        .where(eq(schema.ledgerTransaction.organizationId, organizationId)),
      db
        .select()
        .from(schema.balanceMovement)
        .where(eq(schema.balanceMovement.organizationId, organizationId)),
      db.select().from(schema.organization).where(eq(schema.organization.id, organizationId)),
    ]);
    return {
      attempts,
      ledger,
      movements,
      balanceCents: organization!.balanceCents,
      accountStatus: organization!.accountStatus,
    };
  } finally {
    await database.close();
  }
}

/** A charge as the sandbox lists it to the merchant. */
interface SandboxCharge {
  id: string;
  idempotencyKey: string;
  status: 'succeeded' | 'failed';
  amountCents: number;
}

const sumOf = (rows: { amountCents: number }[]) => rows.reduce((total, row) => total + row.amountCents, 0);

/**
 * The owner saves a card, and six months billed on an empty balance leave six invoices open and the
 * account inactive. Then, on a server started with the commit reporter, the owner pays every
 * invoice several times at once (with the saved card, fresh cards, or declined ones) while topping
 * up twelve times (fresh cards, the saved card, declined ones); the server is killed with SIGKILL
 * the moment the sandbox gateway commits the KILLED_AT_CHARGE-th successful charge, before the portal
 * has heard the answer (the reporter holds the server's thread there), so at least that charge is
 * made at the gateway with its attempt unsettled. Restarted on the same data, the server reconciles
 * the unsettled attempts with the gateway by their idempotency keys; then every charge the gateway
 * made is one succeeded attempt with one ledger effect, nothing is pending, refused attempts wrote
 * nothing, no invoice is charged twice, and the balance is what the top-ups and the invoices it paid
 * make it.
 */
export async function paymentsSurviveSigkill(databaseUrl = ''): Promise<Set<string>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-payments-crash-'));
  const port = await freePort();
  // The schedule stays off: only the start-up reconciliation settles what the kill left. The batch's
  // declined cards are far more than the card-attempt limits allow one member in ten minutes.
  const env = {
    ...CARD_SANDBOX_KEYS,
    BILLING_SCHEDULE_SECONDS: '0',
    RATE_LIMIT_MAX_PER_ACCOUNT: '10000',
    CARD_ATTEMPTS_PER_MEMBER: '10000',
    CARD_ATTEMPTS_PER_ORGANIZATION: '10000',
    CARD_ATTEMPTS_PER_IP: '10000',
  };
  const servers: ChildProcess[] = [];
  try {
    servers.push(await startServer(port, dataDir, databaseUrl, { env }));
    const call = client(port);
    await signUpOwner(call, 'payments-crash@acme.io');
    const { organizationId } = (await call('GET', '/api/v1/accounts/me')) as { organizationId: string };
    const gateway = (await call('GET', '/api/v1/accounts/payment-gateway')) as PaymentGatewayConfiguration;
    const token = (number: string) => cardToken(port, gateway, number);
    const savedCard = (await call('POST', '/api/v1/accounts/payment-profiles', {
      token: await token(TEST_CARDS.visa),
    })) as PaymentProfile;
    await stopServer(servers[0]!, 'SIGTERM');
    const invoiceIds = await billOpenInvoices(dataDir, databaseUrl, organizationId);

    const first = await startServer(port, dataDir, databaseUrl, {
      env: { ...env, CARD_CHARGE_HOLD_AT: String(KILLED_AT_CHARGE) },
      reportCommits: true,
    });
    servers.push(first);
    let heldCharge = '';
    const killPointReached = new Promise<void>((resolve) => {
      readline.createInterface({ input: first.stdout! }).on('line', (line) => {
        const held = /^card charge committed (\S+) succeeded holding$/.exec(line);
        if (held) resolve(void (heldCharge = held[1]!));
      });
    });
    // Invoices in turn with a declined card for each pay, the saved card, a fresh card for each pay;
    // every fourth top-up with a declined card, every fourth with the saved card. Pays and top-ups
    // are sent in turn, all at once.
    const saved = { paymentProfileId: savedCard.id };
    const pays = await Promise.all(
      invoiceIds.flatMap((id, index) =>
        Array.from({ length: PAYS_PER_INVOICE }, async () => ({
          url: `/api/v1/transactions/${id}/pay`,
          body:
            index % 3 === 1
              ? saved
              : { token: await token(index % 3 === 0 ? TEST_CARDS.declined : TEST_CARDS.visa) },
        })),
      ),
    );
    const topUps = await Promise.all(
      TOP_UP_AMOUNTS.map(async (amount, index) => ({
        url: '/api/v1/accounts/topup',
        body:
          index % 4 === 1
            ? { amount, ...saved }
            : { amount, token: await token(index % 4 === 3 ? TEST_CARDS.declined : TEST_CARDS.visa) },
      })),
    );
    const batch = Promise.allSettled(
      interleave(pays, topUps).map(async ({ url, body }) => ({
        url,
        ...(await call.request('POST', url, body)),
      })),
    );
    const killedEarly = await Promise.race([killPointReached.then(() => false), batch.then(() => true)]);
    if (killedEarly) throw new Error('every payment was answered before the kill point');
    await stopServer(first, 'SIGKILL');
    const answers = await batch;
    // The request whose charge was held, at least, got no answer.
    expect(answers.filter((answer) => answer.status === 'rejected').length).toBeGreaterThan(0);

    const lockHolder = () => fs.readFileSync(path.join(dataDir, 'portal.lock'), 'utf8');
    if (!databaseUrl) expect(lockHolder()).toBe(String(first.pid));
    const restartedAt = new Date();
    const restarted = await startServer(port, dataDir, databaseUrl, {
      env: { ...env, LOG_LEVEL: 'info' },
      pipeStdout: true,
    });
    servers.push(restarted);
    if (!databaseUrl) expect(lockHolder()).toBe(String(restarted.pid));
    const reconciled = await new Promise<Record<string, unknown> | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), RECONCILIATION_WAIT_MS);
      readline.createInterface({ input: restarted.stdout! }).on('line', (line) => {
        if (!line.includes('"payment attempts reconciled"')) return;
        clearTimeout(timer);
        resolve(JSON.parse(line) as Record<string, unknown>);
      });
    });
    const listed = await fetch(`http://127.0.0.1:${port}/card-sandbox/v1/charges?limit=100`, {
      headers: { authorization: `Bearer ${CARD_SANDBOX_KEYS.CARD_SANDBOX_SECRET_KEY}` },
    });
    expect(listed.status).toBe(200);
    const charges = ((await listed.json()) as { data: SandboxCharge[] }).data;
    await stopServer(restarted, 'SIGTERM');

    const { attempts, ledger, movements, balanceCents, accountStatus } = await paymentRecordsOf(
      dataDir,
      databaseUrl,
      organizationId,
    );
    expect(attempts.filter((attempt) => attempt.status === 'pending')).toEqual([]);
    // The charge the kill cut off was settled by the restarted server's reconciliation.
    const heldAttempt = attempts.find((attempt) => attempt.chargeRef === heldCharge);
    expect(heldAttempt?.status).toBe('succeeded');
    expect(heldAttempt!.settledAt!.getTime()).toBeGreaterThanOrEqual(restartedAt.getTime());
    expect(reconciled).toMatchObject({ pending: 0 });

    // The gateway's record and the attempts agree: one charge per attempt the gateway saw, with its
    // outcome and amount, and each succeeded attempt names its charge.
    const outcome = (key: string, status: string, amountCents: number) => ({ key, status, amountCents });
    const byKey = (a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key);
    expect(
      charges
        .map((charge) =>
          outcome(
            charge.idempotencyKey,
            charge.status === 'succeeded' ? 'succeeded' : 'refused',
            charge.amountCents,
          ),
        )
        .sort(byKey),
    ).toEqual(
      attempts
        .filter((attempt) => attempt.refusal !== 'invalid_token')
        .map((attempt) => outcome(attempt.idempotencyKey, attempt.status, attempt.amountCents))
        .sort(byKey),
    );
    for (const attempt of attempts.filter((row) => row.status === 'succeeded')) {
      expect(attempt.chargeRef).toBe(
        charges.find((charge) => charge.idempotencyKey === attempt.idempotencyKey)?.id,
      );
    }

    // Each succeeded top-up wrote its top-up, its free credit if any, and raised the balance by its
    // amount, once; a refused one wrote nothing.
    const movedBy = (transactionIds: number[]) =>
      sumOf(movements.filter((movement) => transactionIds.includes(movement.transactionId)));
    const topUpAttempts = attempts.filter((attempt) => attempt.purpose === 'topup');
    for (const attempt of topUpAttempts) {
      const keys = [attempt.idempotencyKey, `${attempt.idempotencyKey}:free-credit`];
      const rows = ledger.filter((row) => row.idempotencyKey !== null && keys.includes(row.idempotencyKey));
      const written = rows.map((row) => ({
        type: row.type,
        amountCents: row.amountCents,
        status: row.status,
      }));
      if (attempt.status !== 'succeeded') {
        expect(written).toEqual([]);
        continue;
      }
      expect(written.sort((a, b) => b.type.localeCompare(a.type))).toEqual([
        { type: 'topup', amountCents: attempt.amountCents, status: 'paid' },
        ...(attempt.freeCreditCents > 0
          ? [{ type: 'service_credit', amountCents: attempt.freeCreditCents, status: 'paid' }]
          : []),
      ]);
      expect(movedBy(rows.map((row) => row.id))).toBe(attempt.topUpAmountCents);
    }
    // The ledger holds the invoices and what the succeeded top-ups wrote, nothing else.
    const succeededTopUps = topUpAttempts.filter((attempt) => attempt.status === 'succeeded');
    expect(ledger).toHaveLength(
      invoiceIds.length +
        succeededTopUps.reduce((rows, attempt) => rows + (attempt.freeCreditCents > 0 ? 2 : 1), 0),
    );

    // Each invoice is charged to a card once at most; what it has been paid is that charge and what
    // the balance paid of it, and it is paid when that is all it asks, open otherwise.
    let paidFromBalanceCents = 0;
    for (const id of invoiceIds) {
      const invoice = ledger.find((row) => row.id === id)!;
      const cardCharges = attempts.filter(
        (attempt) => attempt.invoiceTransactionId === id && attempt.status === 'succeeded',
      );
      const fromBalanceCents = -movedBy([id]);
      paidFromBalanceCents += fromBalanceCents;
      const paidCents = sumOf(cardCharges) + fromBalanceCents;
      expect(cardCharges.length).toBeLessThanOrEqual(1);
      expect({ status: invoice.status, paymentAmountCents: invoice.paymentAmountCents }).toEqual({
        status: paidCents === invoice.amountCents ? 'paid' : 'open',
        paymentAmountCents: paidCents,
      });
    }

    // The balance is what the top-ups raised it by less what it paid of the invoices.
    const expectedBalanceCents =
      sumOf(succeededTopUps.map((attempt) => ({ amountCents: attempt.topUpAmountCents }))) -
      paidFromBalanceCents;
    expect({ balanceCents, movedCents: sumOf(movements) }).toEqual({
      balanceCents: expectedBalanceCents,
      movedCents: expectedBalanceCents,
    });

    // The account is active exactly when nothing is owed any more: the payment that paid the last
    // debt reactivated it in its own settlement, whether or not the kill came after it.
    const owes = ledger.some(
      (row) => row.type === 'service_charge' && (row.status === 'open' || row.status === 'processing'),
    );
    expect(accountStatus).toBe(owes ? 'inactive' : 'active');

    const kinds = new Set(attempts.map((attempt) => `${attempt.purpose} ${attempt.status}`));
    // What was answered before the kill is what the records say.
    for (const answer of answers) {
      if (answer.status === 'rejected') continue;
      const { url, status, text } = answer.value;
      if (url.endsWith('/topup') && status === 201) {
        const { transactionId } = JSON.parse(text) as TopUpResponse;
        expect(ledger.find((row) => row.id === Number(transactionId))?.type).toBe('topup');
      } else if (status === 200) {
        const id = Number(url.split('/')[4]);
        expect(ledger.find((row) => row.id === id)?.status).toBe('paid');
      } else {
        expect([402, 409]).toContain(status);
      }
    }
    return kinds;
  } finally {
    for (const server of servers) server.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** What the kill -9 test of card payments is about: each purpose of attempt, succeeded and refused. */
const PAYMENT_ATTEMPT_KINDS = ['invoice refused', 'invoice succeeded', 'topup refused', 'topup succeeded'];
/** Kills of the payments server made at most, until one batch had every kind of attempt before its kill. */
const PAYMENT_KILL_RUNS = 3;

/**
 * Runs the kill -9 test of card payments (each run on a database of its own) until one run's batch
 * had every kind of attempt before the kill: which charges the server makes before the held one is
 * the machine's scheduling, and a run whose first charges were all top-ups tests less than it should.
 * Every run's records are checked in full whatever its batch had.
 */
export async function paymentsSurviveSigkillWithEveryKind(run: () => Promise<Set<string>>) {
  for (let attempt = 1; ; attempt += 1) {
    const kinds = await run();
    if (PAYMENT_ATTEMPT_KINDS.every((kind) => kinds.has(kind))) return;
    if (attempt === PAYMENT_KILL_RUNS) expect([...kinds].sort()).toEqual(PAYMENT_ATTEMPT_KINDS);
  }
}

/** The items of both lists taken in turn, the rest of the longer one after. */
function interleave<T>(a: T[], b: T[]): T[] {
  return Array.from({ length: Math.max(a.length, b.length) }, (_, index) => [a[index], b[index]])
    .flat()
    .filter((item): item is T => item !== undefined);
}
