import fs from 'node:fs';
import { CardSandboxStore } from '@portal/card-sandbox';
import { PgDatabase } from 'drizzle-orm/pg-core';

/*
 * Preloaded into the real server by the crash tests (`--import` after tsx): writes a line to stdout
 * each time one of the portal's database transactions commits. The write is synchronous, so the test
 * sees each commit at once, even while a long run keeps the server's event loop busy.
 */
const transaction = PgDatabase.prototype.transaction;
PgDatabase.prototype.transaction = async function (this: PgDatabase<never>, ...args) {
  const result = await transaction.apply(this, args);
  // crash-recovery.ts counts these lines.
  fs.writeSync(1, 'transaction committed\n');
  return result;
} as typeof transaction;

/*
 * And a line `card charge committed <charge id> <succeeded|failed>` each time the card sandbox the
 * server hosts commits a charge (in its own transaction, before the portal hears the answer). With
 * CARD_CHARGE_HOLD_AT=n, the n-th succeeded charge's line ends in `holding` and the server's thread
 * then stops (for a minute at most), so that a SIGKILL the test sends on that line lands between the
 * gateway's charge and the portal's settlement of it.
 */
const holdAt = Number(process.env.CARD_CHARGE_HOLD_AT ?? 0);
let succeededCharges = 0;
/** The charge each transaction's store settled, by that store. */
const settledCharges = new WeakMap<CardSandboxStore, string>();

const settleCharge = CardSandboxStore.prototype.settleCharge;
CardSandboxStore.prototype.settleCharge = async function (this: CardSandboxStore, id, outcome) {
  await settleCharge.call(this, id, outcome);
  settledCharges.set(this, `${id} ${outcome.failureCode ? 'failed' : 'succeeded'}`);
};

const sandboxTransaction = CardSandboxStore.prototype.transaction;
CardSandboxStore.prototype.transaction = async function <T>(
  this: CardSandboxStore,
  work: (store: CardSandboxStore) => Promise<T>,
) {
  let store: CardSandboxStore | undefined;
  const result = await sandboxTransaction.call<CardSandboxStore, [typeof work], Promise<T>>(this, (tx) =>
    work((store = tx)),
  );
  const charge = store && settledCharges.get(store);
  if (!charge) return result;
  const held = charge.endsWith(' succeeded') && (succeededCharges += 1) === holdAt;
  fs.writeSync(1, `card charge committed ${charge}${held ? ' holding' : ''}\n`);
  if (held) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
  return result;
};
