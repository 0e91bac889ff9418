import { CARD_TYPE_LABELS, padTransactionId, type CardType } from '@portal/contracts';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { portalName } from '../../auth/auth.ts';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { lowBalanceMail, paymentReceiptMail } from '../../mail/templates.ts';
import { jobIdOf, type JobQueue, type JobWorkers } from '../../plugins/job-queue.ts';
import { billingCycleBefore, billingCycleOf, formatUsd } from '../billing/billing-rules.ts';
import { listSuperAdminEmails } from '../billing/billing.repository.ts';
import { usageAlertRecipients } from '../usage-alerts/usage-alerts.check.ts';
import { deleteExpiredCardAttempts } from './card-attempts.ts';
import {
  findAttempt,
  findPayingOrganization,
  listLowBalances,
  listUnsettledAttempts,
  markLowBalanceWarned,
  type PaymentAttemptRow,
} from './payments.repository.ts';
import { transactionPaidFor } from './paid-for.ts';
import type { PaymentsService } from './payments.service.ts';

const PAYMENT_RECEIPT_QUEUE = 'payment-receipt';
const LOW_BALANCE_MAIL_QUEUE = 'low-balance-mail';
const MAIL_EXPIRY_SECONDS = 5 * 60;
const RETRY_DELAY_SECONDS = 60;
const RETRY_LIMIT = 12;
/**
 * How old a pending attempt must be before the schedule asks the gateway about it: a live request
 * settles its own attempt within the gateway's time-out, well inside this.
 */
const RECONCILE_AFTER_MS = 2 * 60_000;

/** The receipt of one successful payment to one super-admin. */
interface PaymentReceiptJob {
  organizationId: string;
  attemptId: number;
  to: string;
}

/** Queues the receipt of a payment to each super-admin, each once however often this is asked. */
export async function sendReceipts(db: Db, jobQueue: JobQueue, attempt: PaymentAttemptRow) {
  for (const to of await listSuperAdminEmails(db, attempt.organizationId)) {
    const job: PaymentReceiptJob = { organizationId: attempt.organizationId, attemptId: attempt.id, to };
    await jobQueue.send(PAYMENT_RECEIPT_QUEUE, job, {
      id: jobIdOf('payment-receipt', attempt.idempotencyKey, to),
    });
  }
}

/** The low-balance warning of one month to one super-admin. */
interface LowBalanceMailJob {
  organizationId: string;
  cycle: string;
  to: string;
  balanceCents: number;
  lastMonthCents: number;
}

interface ReceiptDeps {
  db: Db;
  mailer: Mailer;
  portalName: string;
  publicUrl: string;
}

/** Mails one super-admin the receipt of a successful payment. */
export async function mailPaymentReceipt(deps: ReceiptDeps, job: PaymentReceiptJob) {
  const attempt = await findAttempt(deps.db, job.organizationId, job.attemptId);
  const organization = await findPayingOrganization(deps.db, job.organizationId);
  if (attempt?.status !== 'succeeded' || !organization || attempt.resultTransactionId === null) return;
  const brand = CARD_TYPE_LABELS[attempt.cardBrand as CardType] ?? attempt.cardBrand ?? 'card';
  const transactionId = attempt.resultTransactionId;
  await deps.mailer.send(
    paymentReceiptMail({
      to: job.to,
      portalName: deps.portalName,
      organizationName: organization.name,
      amount: `USD ${formatUsd(attempt.amountCents)}`,
      card: `${brand} card ending in ${attempt.cardLast4 ?? '????'}`,
      paidFor:
        attempt.purpose === 'topup'
          ? 'Top-up of the prepaid balance'
          : await transactionPaidFor(deps.db, job.organizationId, transactionId),
      link: new URL(`/billing/asc/${padTransactionId(transactionId)}`, deps.publicUrl).toString(),
    }),
  );
}

/**
 * Warns each active PAYG organisation whose balance is below last month's charge (the low-balance
 * alert of those who set none: its super-admins and the addresses they added), once a month: the mail jobs are keyed by organisation, month and address, so a warning
 * repeated before the month is recorded sends nothing twice.
 */
export async function warnLowBalances(deps: { db: Db; jobQueue: JobQueue }, now: Date) {
  const cycle = billingCycleOf(now);
  const low = await listLowBalances(deps.db, cycle, billingCycleBefore(now));
  for (const organization of low) {
    for (const to of await usageAlertRecipients(deps.db, organization.organizationId)) {
      const job: LowBalanceMailJob = { ...organization, cycle, to };
      await deps.jobQueue.send(LOW_BALANCE_MAIL_QUEUE, job, {
        id: jobIdOf('low-balance', organization.organizationId, cycle, to),
      });
    }
    await markLowBalanceWarned(deps.db, organization.organizationId, cycle);
  }
  return low.map((organization) => organization.organizationId);
}

export async function mailLowBalanceWarning(deps: ReceiptDeps, job: LowBalanceMailJob) {
  const organization = await findPayingOrganization(deps.db, job.organizationId);
  if (!organization) return;
  await deps.mailer.send(
    lowBalanceMail({
      to: job.to,
      portalName: deps.portalName,
      organizationName: organization.name,
      balance: `USD ${formatUsd(job.balanceCents)}`,
      lastMonth: `USD ${formatUsd(job.lastMonthCents)}`,
      link: new URL('/payment/asc/top-up', deps.publicUrl).toString(),
    }),
  );
}

/**
 * Settles every attempt written before `createdBefore` that is still pending (the server stopped,
 * or the gateway's answer was lost) by asking the gateway again with its idempotency key.
 */
export async function reconcilePaymentAttempts(
  deps: { db: Db; payments: PaymentsService; log: FastifyBaseLogger },
  createdBefore: Date,
) {
  const outcomes = { succeeded: 0, refused: 0, pending: 0 };
  for (const attempt of await listUnsettledAttempts(deps.db, createdBefore)) {
    try {
      outcomes[await deps.payments.reconcile(attempt)] += 1;
    } catch (error) {
      outcomes.pending += 1;
      deps.log.error(
        { err: error, attemptId: attempt.id },
        'payment attempt not reconciled; the next round retries',
      );
    }
  }
  return outcomes;
}

interface PaymentWorkersDeps extends ReceiptDeps {
  payments: PaymentsService;
  jobQueue: JobQueue;
  log: FastifyBaseLogger;
  scheduleSeconds: number;
}

/**
 * The receipts, the reconciliation of unsettled attempts at start and on the billing schedule, and
 * on that schedule the removal of card attempts the limits count no more.
 */
class PaymentWorkers implements JobWorkers {
  readonly finishWithinMs = 15_000;
  private readonly startedAt = new Date();
  private reconciling: Promise<void> = Promise.resolve();

  constructor(private readonly deps: PaymentWorkersDeps) {}

  async start() {
    const { deps } = this;
    for (const name of [PAYMENT_RECEIPT_QUEUE, LOW_BALANCE_MAIL_QUEUE]) {
      const queue = {
        name,
        retryLimit: RETRY_LIMIT,
        retryDelay: RETRY_DELAY_SECONDS,
        retryBackoff: true,
        expireInSeconds: MAIL_EXPIRY_SECONDS,
      };
      await deps.jobQueue.defineQueue(queue);
    }
    await deps.jobQueue.work<PaymentReceiptJob>(PAYMENT_RECEIPT_QUEUE, {}, async ([job]) => {
      if (job) await mailPaymentReceipt(deps, job.data);
    });
    await deps.jobQueue.work<LowBalanceMailJob>(LOW_BALANCE_MAIL_QUEUE, {}, async ([job]) => {
      if (job) await mailLowBalanceWarning(deps, job.data);
    });
    // What an earlier run of the server left unsettled (a crash mid-payment) is settled now.
    this.reconcile(this.startedAt);
    if (deps.scheduleSeconds === 0) return;
    deps.jobQueue.schedule('payments', deps.scheduleSeconds * 1000, async () => {
      this.reconcile(new Date(Date.now() - RECONCILE_AFTER_MS));
      // Card attempts past the limits' window count no more: the table keeps only the last minutes.
      await Promise.all([warnLowBalances(deps, new Date()), deleteExpiredCardAttempts(deps.db)]);
    });
  }

  /** Waits for a reconciliation under way: it writes, and sends receipts. */
  async stop() {
    await this.reconciling;
  }

  private reconcile(createdBefore: Date) {
    this.reconciling = reconcilePaymentAttempts(this.deps, createdBefore).then(
      (outcomes) => {
        if (outcomes.succeeded + outcomes.refused + outcomes.pending > 0) {
          this.deps.log.info(outcomes, 'payment attempts reconciled');
        }
      },
      (error: unknown) =>
        this.deps.log.error({ err: error }, 'payment reconciliation failed; the next round retries'),
    );
  }
}

export async function paymentsJobs(app: FastifyInstance) {
  app.jobQueue.addWorkers(
    new PaymentWorkers({
      db: app.database.db,
      payments: app.payments,
      jobQueue: app.jobQueue,
      mailer: app.mailer,
      portalName: portalName(app.config),
      publicUrl: app.config.publicUrl,
      log: app.log,
      scheduleSeconds: app.config.billingScheduleSeconds,
    }),
  );
}
