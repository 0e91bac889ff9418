import fs from 'node:fs';
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
