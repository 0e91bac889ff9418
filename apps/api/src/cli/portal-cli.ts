import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  OPERATOR_API_PREFIX,
  type ApiErrorBody,
  type CreateMiscellaneousChargeResponse,
  type GrantCreditResponse,
  type ImportUsageResponse,
  type ListOperatorOrganizationsResponse,
  type OperatorOrganization,
  type OperatorOrganizationSummary,
  type ResetTwoFactorResponse,
  type RunBillingResponse,
  type VoidMiscellaneousChargeResponse,
} from '@portal/contracts';
import { OPERATOR_TOKEN_FILE } from '../auth/secret.ts';

/*
 * The operator CLI (`npm run portal -- <command>`): each command is one call to the running
 * portal's operator API, so it works whatever database the portal holds (PGlite locks its data dir
 * to the server) and against any of several instances.
 */

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

const DEFAULT_PORTAL_URL = 'http://localhost:3000';
const DEFAULT_DATA_DIR = './data';
const PROGRESS_INTERVAL_MS = 1000;

export const USAGE = `usage: npm run portal -- <command> [--json]

  org list [--page N]
  org show <org-id|email>
  org set-contract <org> --type payg|flat-rate [--license N --fee 499.00 --support-plan NAME
                   --support-fee 100.00 --overage-plan basic|advance|max]
  org set-limits <org> [--apps N] [--members N]
  org set-status <org> active|inactive
  org set-billing-country <org> <country code, such as SG>
  org set-free-credit <org> on|off
  org grant-credit <org> --amount 50.00 --note TEXT [--key KEY]
  usage import [--month YYYY-MM]
  billing run --month YYYY-MM [--org <org>]
  billing charge <org> --amount 120.00 --notes TEXT [--key KEY]
  billing void-charge <org> <transaction-id> --reason TEXT
  member reset-two-factor <email>

<org> is an organisation id or the address of one of its members. The portal is PORTAL_URL
(default ${DEFAULT_PORTAL_URL}); the token is OPERATOR_TOKEN, or the one the portal generated into
its data dir (PORTAL_DATA_DIR, default ${DEFAULT_DATA_DIR}). docs/operations.md has examples.`;

export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

/** A mistake in the command line: the usage is shown and the exit code is 2. */
class UsageError extends Error {}
/** A failure to report in words, exit code 1. */
class CliFailure extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

interface Call {
  method: 'GET' | 'PUT' | 'POST';
  path: string;
  body?: unknown;
  /** Shown while the call runs, with the seconds it has taken. */
  progress?: string;
  /** How to repeat a call that moves money safely when its answer was lost. */
  repeatSafely?: string;
}

interface Command {
  /** Positionals after the command's two words, by name. */
  arguments: string[];
  options: Options;
  call(args: Record<string, string>, values: Values): Call;
  /** The answer in words; the exit code is 1 when `failed` says some of the work failed. */
  print(answer: unknown): { text: string; failed?: boolean };
}

/** API fields by the flag that sets them, so a refusal names what the operator typed. */
const FLAG_OF_FIELD: Record<string, string> = {
  licenseMau: '--license',
  licenseFee: '--fee',
  supportPlan: '--support-plan',
  supportPlanFee: '--support-fee',
  overagePlan: '--overage-plan',
  applications: '--apps',
  members: '--members',
  amount: '--amount',
  note: '--note',
  notes: '--notes',
  reason: '--reason',
  idempotencyKey: '--key',
  month: '--month',
  organization: '--org',
  page: '--page',
};

function wholeNumber(values: Values, flag: string): number | undefined {
  const value = values[flag];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value))
    throw new UsageError(`--${flag} takes a whole number`);
  return Number(value);
}

function text(values: Values, flag: string): string | undefined {
  const value = values[flag];
  return typeof value === 'string' ? value : undefined;
}

function required(values: Values, flag: string): string {
  const value = text(values, flag);
  if (value === undefined) throw new UsageError(`--${flag} is required`);
  return value;
}

function oneOf<T extends string | boolean>(value: string, choices: Record<string, T>, what: string): T {
  const choice = choices[value];
  if (choice === undefined) throw new UsageError(`${what} is one of ${Object.keys(choices).join(', ')}`);
  return choice;
}

/**
 * A call that moves money, named by `--key` or a key made up here, so repeating the command with that
 * key cannot do it twice; when the answer is lost, the operator is told the key to repeat it with.
 */
function moneyMovingPost(
  path: string,
  body: Record<string, string>,
  values: Values,
  lost: { done: string; verb: string },
): Call {
  const idempotencyKey = text(values, 'key') ?? crypto.randomUUID();
  return {
    method: 'POST',
    path,
    body: { ...body, idempotencyKey },
    repeatSafely: `${lost.done}: repeat the command with --key ${idempotencyKey} to ${lost.verb} it at most once.`,
  };
}

const organizationPath = (reference: string, suffix = '') =>
  `/organizations/${encodeURIComponent(reference)}${suffix}`;

/** USD with 2 decimals, as invoices show it. */
function usd(amount: number): string {
  return `USD ${amount.toFixed(2)}`;
}

/** Columns padded to their widest cell. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** The account status with why an inactive account is so: an unpaid charge, or the operator. */
function statusText({ accountStatus, inactiveReason }: OperatorOrganizationSummary): string {
  if (inactiveReason === 'operator') return `${accountStatus} (suspended by an operator)`;
  if (inactiveReason === 'billing') return `${accountStatus} (unpaid charge)`;
  return accountStatus;
}

function describeOrganization(organization: OperatorOrganization): string {
  const { contract, limits, usage } = organization;
  const contractLines =
    contract.type === 'flat_rate'
      ? [
          `Contract         flat-rate: licence ${contract.licenseMau} MAU for ${usd(contract.licenseFee)} a month, ` +
            `MAU above it at the ${contract.overagePlan} price`,
          `Support plan     ${contract.supportPlan || '(none)'}${contract.supportPlanFee > 0 ? ` for ${usd(contract.supportPlanFee)} a month` : ''}`,
        ]
      : ['Contract         PAYG'];
  return [
    `Organisation     ${organization.name || '(not set up)'} (${organization.id})`,
    `Email            ${organization.email}`,
    `Status           ${statusText(organization)}${organization.isAccountFilled ? '' : ', setup not completed'}`,
    ...contractLines,
    `Billing country  ${organization.billingCountry || '(none)'}${organization.billingCountryLocked ? ', fixed by a card payment' : ''}`,
    `Limits           ${usage.applications} of ${limits.applications} applications, ${usage.members} of ${limits.members} members`,
    `Balance          ${usd(organization.balance)} (minimum ${usd(organization.minimumBalance)})`,
    `Free credit      ${organization.isFreeCredit ? 'on' : 'off'}`,
    `Trial ends       ${organization.trialEndAt ?? '(no trial)'}`,
    `Created          ${organization.createdAt}`,
  ].join('\n');
}

const printOrganization = (answer: unknown) => ({
  text: describeOrganization(answer as OperatorOrganization),
});

const CONTRACT_TYPES = { payg: 'payg', 'flat-rate': 'flat_rate', flat_rate: 'flat_rate' } as const;
const ACCOUNT_STATUSES = { active: 'active', inactive: 'inactive' } as const;
const SWITCH = { on: true, off: false } as const;

const COMMANDS: Record<string, Command> = {
  'org list': {
    arguments: [],
    options: { page: { type: 'string' } },
    call: (_args, values) => ({
      method: 'GET',
      path: `/organizations?page=${wholeNumber(values, 'page') ?? 1}`,
    }),
    print(answer) {
      const { data, total } = answer as ListOperatorOrganizationsResponse;
      const rows = data.map((row) => [
        row.id,
        row.name || '(not set up)',
        row.email,
        row.contractType === 'flat_rate' ? 'flat-rate' : 'PAYG',
        statusText(row),
        usd(row.balance),
      ]);
      const listed = `${data.length} of ${total} organisations`;
      return { text: `${table(['ID', 'NAME', 'EMAIL', 'CONTRACT', 'STATUS', 'BALANCE'], rows)}\n${listed}` };
    },
  },
  'org show': {
    arguments: ['org'],
    options: {},
    call: ({ org }) => ({ method: 'GET', path: organizationPath(org!) }),
    print: printOrganization,
  },
  'org set-contract': {
    arguments: ['org'],
    options: {
      type: { type: 'string' },
      license: { type: 'string' },
      fee: { type: 'string' },
      'support-plan': { type: 'string' },
      'support-fee': { type: 'string' },
      'overage-plan': { type: 'string' },
    },
    call: ({ org }, values) => ({
      method: 'PUT',
      path: organizationPath(org!, '/contract'),
      body: {
        type: oneOf(required(values, 'type'), CONTRACT_TYPES, '--type'),
        licenseMau: wholeNumber(values, 'license'),
        licenseFee: text(values, 'fee'),
        supportPlan: text(values, 'support-plan'),
        supportPlanFee: text(values, 'support-fee'),
        overagePlan: text(values, 'overage-plan'),
      },
    }),
    print: printOrganization,
  },
  'org set-limits': {
    arguments: ['org'],
    options: { apps: { type: 'string' }, members: { type: 'string' } },
    call: ({ org }, values) => {
      const limits = { applications: wholeNumber(values, 'apps'), members: wholeNumber(values, 'members') };
      if (limits.applications === undefined && limits.members === undefined)
        throw new UsageError('name --apps, --members or both');
      return { method: 'PUT', path: organizationPath(org!, '/limits'), body: limits };
    },
    print: printOrganization,
  },
  'org set-status': {
    arguments: ['org', 'status'],
    options: {},
    call: ({ org, status }) => ({
      method: 'PUT',
      path: organizationPath(org!, '/status'),
      body: { status: oneOf(status!, ACCOUNT_STATUSES, 'the status') },
    }),
    print: printOrganization,
  },
  'org set-billing-country': {
    arguments: ['org', 'country'],
    options: {},
    call: ({ org, country }) => ({
      method: 'PUT',
      path: organizationPath(org!, '/billing-country'),
      body: { country },
    }),
    print: printOrganization,
  },
  'org set-free-credit': {
    arguments: ['org', 'switch'],
    options: {},
    call: ({ org, switch: onOff }) => ({
      method: 'PUT',
      path: organizationPath(org!, '/free-credit'),
      body: { enabled: oneOf(onOff!, SWITCH, 'free credit') },
    }),
    print: printOrganization,
  },
  'org grant-credit': {
    arguments: ['org'],
    options: { amount: { type: 'string' }, note: { type: 'string' }, key: { type: 'string' } },
    call: ({ org }, values) =>
      moneyMovingPost(
        organizationPath(org!, '/credits'),
        { amount: required(values, 'amount'), note: required(values, 'note') },
        values,
        { done: 'The credit may have been granted', verb: 'grant' },
      ),
    print(answer) {
      const grant = answer as GrantCreditResponse;
      const what = grant.alreadyGranted ? 'Already granted' : 'Granted';
      return {
        text: `${what} ${usd(grant.amount)} as transaction ${grant.transactionId}; the balance is now ${usd(grant.balance)}.`,
      };
    },
  },
  'usage import': {
    arguments: [],
    options: { month: { type: 'string' } },
    call: (_args, values) => {
      const month = text(values, 'month');
      return {
        method: 'POST',
        path: '/usage-imports',
        body: { month },
        progress: `Importing the usage of ${month ?? 'this month'} from every region`,
      };
    },
    print(answer) {
      const { month, recorded } = answer as ImportUsageResponse;
      return { text: `Imported the usage of ${month}: ${recorded} applications recorded.` };
    },
  },
  'billing run': {
    arguments: [],
    options: { month: { type: 'string' }, org: { type: 'string' } },
    call: (_args, values) => {
      const month = required(values, 'month');
      const org = text(values, 'org');
      return {
        method: 'POST',
        path: '/billing-runs',
        body: { month, organization: org },
        progress: `Billing ${month}${org ? ` for ${org}` : ''}`,
        repeatSafely:
          'Part of the month may be billed already: run the same command again once the portal is up; ' +
          'each organisation is billed at most once.',
      };
    },
    print(answer) {
      const run = answer as RunBillingResponse;
      const rows = run.billed.map((billed) => [
        billed.organizationId,
        billed.transactionId,
        billed.status,
        usd(billed.charge),
        usd(billed.credit),
        usd(billed.paid),
        usd(billed.due),
      ]);
      const lines = [
        `Billed ${run.month}: ${run.billed.length} billed, ${run.alreadyBilled.length} already billed, ` +
          `${run.becameInactive.length} made inactive, ${run.failed.length} failed.`,
      ];
      if (rows.length > 0)
        lines.push(table(['ORGANISATION', 'TRANSACTION', 'STATUS', 'CHARGE', 'CREDIT', 'PAID', 'DUE'], rows));
      for (const organizationId of run.becameInactive) lines.push(`Made inactive: ${organizationId}`);
      for (const failure of run.failed) lines.push(`Failed: ${failure.organizationId}: ${failure.error}`);
      return { text: lines.join('\n'), failed: run.failed.length > 0 };
    },
  },
  'billing charge': {
    arguments: ['org'],
    options: { amount: { type: 'string' }, notes: { type: 'string' }, key: { type: 'string' } },
    call: ({ org }, values) =>
      moneyMovingPost(
        organizationPath(org!, '/charges'),
        { amount: required(values, 'amount'), notes: required(values, 'notes') },
        values,
        { done: 'The charge may have been raised', verb: 'raise' },
      ),
    print(answer) {
      const charge = answer as CreateMiscellaneousChargeResponse;
      const what = charge.alreadyCreated ? 'Already raised' : 'Raised';
      return {
        text:
          `${what} transaction ${charge.transactionId} (${charge.status}): ${usd(charge.amount)} + ` +
          `tax ${charge.taxPercentage}% ${usd(charge.tax)} = ${usd(charge.total)}, for "${charge.notes}".`,
      };
    },
  },
  'billing void-charge': {
    arguments: ['org', 'transactionId'],
    options: { reason: { type: 'string' } },
    call: ({ org, transactionId }, values) => ({
      method: 'POST',
      path: organizationPath(org!, `/charges/${encodeURIComponent(transactionId!)}/void`),
      body: { reason: required(values, 'reason') },
      repeatSafely: 'The charge may have been voided: repeating the command voids it at most once.',
    }),
    print(answer) {
      const charge = answer as VoidMiscellaneousChargeResponse;
      const what = charge.alreadyVoided ? 'Already voided' : 'Voided';
      return {
        text: `${what} transaction ${charge.transactionId} (${charge.status}): ${usd(charge.total)} for "${charge.notes}" is no longer due.`,
      };
    },
  },
  'member reset-two-factor': {
    arguments: ['email'],
    options: {},
    call: ({ email }) => ({ method: 'POST', path: '/two-factor-resets', body: { email } }),
    print(answer) {
      const reset = answer as ResetTwoFactorResponse;
      const done = reset.hadSecondFactor
        ? `Removed the second factor of ${reset.email} and ended their sessions; ` +
          (reset.requireTwoFactor
            ? 'they sign in with their password and set up two-factor authentication again, which their organisation requires.'
            : 'they sign in with their password alone and may set up two-factor authentication again.')
        : `${reset.email} had no second factor; their sessions were ended.`;
      return { text: `${done}\nThey were mailed a notice of it.` };
    },
  },
};

function dataDirOf(env: CliIo['env']): string {
  return path.resolve(env.PORTAL_DATA_DIR ?? DEFAULT_DATA_DIR);
}

/** OPERATOR_TOKEN, or the token the portal generated into its data dir; never generated here. */
function operatorTokenOf(env: CliIo['env']): string {
  if (env.OPERATOR_TOKEN) return env.OPERATOR_TOKEN;
  const file = path.join(dataDirOf(env), OPERATOR_TOKEN_FILE);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    throw new CliFailure(
      `No operator token: ${file} does not exist. Set OPERATOR_TOKEN to the portal's, or PORTAL_DATA_DIR to ` +
        'the data dir of a portal that has started once (it writes the token there).',
    );
  }
}

/** A refusal in words, naming the flag behind the field the portal names. */
function refusalText(
  status: number,
  body: Partial<ApiErrorBody>,
  portalUrl: string,
  env: CliIo['env'],
): string {
  if (status === 401) {
    const source = env.OPERATOR_TOKEN
      ? 'OPERATOR_TOKEN'
      : `the token in ${path.join(dataDirOf(env), OPERATOR_TOKEN_FILE)}`;
    return `The portal at ${portalUrl} refused the operator token (${source}): give it the portal's OPERATOR_TOKEN or its data dir.`;
  }
  const flag = body.field ? FLAG_OF_FIELD[body.field] : undefined;
  const message = body.message ?? `the portal answered ${status}`;
  return `${message}${flag ? ` (${flag})` : ''}${body.code ? ` [${body.code}]` : ''}`;
}

/** A progress line on a terminal, redrawn each second with the time taken; stopped by the returned function. */
function showProgress(io: CliIo, label: string, quiet: boolean): () => void {
  if (!io.stderr.isTTY) {
    if (!quiet) io.stderr.write(`${label}…\n`);
    return () => undefined;
  }
  const startedAt = Date.now();
  const draw = () => io.stderr.write(`\r${label}… ${Math.round((Date.now() - startedAt) / 1000)} s`);
  draw();
  const timer = setInterval(draw, PROGRESS_INTERVAL_MS);
  return () => {
    clearInterval(timer);
    io.stderr.write('\r\x1b[K');
  };
}

async function request(io: CliIo, call: Call, quiet: boolean): Promise<unknown> {
  const portalUrl = (io.env.PORTAL_URL ?? DEFAULT_PORTAL_URL).replace(/\/$/, '');
  const token = operatorTokenOf(io.env);
  const stopProgress = call.progress ? showProgress(io, call.progress, quiet) : () => undefined;
  let response: Response;
  try {
    response = await fetch(`${portalUrl}${OPERATOR_API_PREFIX}${call.path}`, {
      method: call.method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(call.body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(call.body !== undefined && { body: JSON.stringify(call.body) }),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new CliFailure(
      `The portal is not reachable at ${portalUrl} (${cause?.code ?? cause?.message ?? (error as Error).message}). ` +
        'Start it (npm start) or set PORTAL_URL to where it runs.' +
        (call.repeatSafely ? ` ${call.repeatSafely}` : ''),
    );
  } finally {
    stopProgress();
  }
  const answer = (await response.json().catch(() => ({}))) as unknown;
  if (!response.ok) {
    throw new CliFailure(refusalText(response.status, answer as Partial<ApiErrorBody>, portalUrl, io.env));
  }
  return answer;
}

/** Runs one command line (without `node` and the script) and answers its exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [group, action, ...rest] = argv;
  const command = COMMANDS[`${group} ${action}`];
  try {
    if (!command) {
      if (argv.includes('--help') || argv.includes('-h')) {
        io.stdout.write(`${USAGE}\n`);
        return EXIT_OK;
      }
      throw new UsageError(
        group ? `unknown command: ${[group, action].filter(Boolean).join(' ')}` : 'no command',
      );
    }
    let parsed: ReturnType<typeof parseArgs>;
    try {
      parsed = parseArgs({
        args: rest,
        allowPositionals: true,
        strict: true,
        options: { ...command.options, json: { type: 'boolean' } },
      });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const { positionals, values } = parsed;
    if (positionals.length !== command.arguments.length) {
      const expected = command.arguments.map((name) => `<${name}>`).join(' ') || 'no arguments';
      throw new UsageError(`${group} ${action} takes ${expected}`);
    }
    const args = Object.fromEntries(command.arguments.map((name, index) => [name, positionals[index]!]));
    const json = values.json === true;
    const answer = await request(io, command.call(args, values), json);
    const { text: output, failed } = command.print(answer);
    io.stdout.write(`${json ? JSON.stringify(answer, null, 2) : output}\n`);
    return failed ? EXIT_FAILED : EXIT_OK;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${error.message}\n\n${USAGE}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof CliFailure) {
      io.stderr.write(`${error.message}\n`);
      return EXIT_FAILED;
    }
    throw error;
  }
}
