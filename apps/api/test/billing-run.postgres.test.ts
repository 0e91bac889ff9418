import { describe, expect, it } from 'vitest';
import { monthlyRunService } from '../src/modules/billing/monthly-run.service.ts';
import {
  balanceMovements,
  countServiceCharges,
  newApplicationWithUsage,
  newOrganization,
  organizationRow,
} from './billing-fixtures.ts';
import { useTestApp } from './helper.ts';

/*
 * On PostgreSQL billing runs really proceed side by side on several connections, each waiting on
 * the others' uncommitted invoices: every organisation must still be billed once and its balance
 * moved once, whichever run gets there first.
 */
const t = useTestApp();
const CYCLE = '2025-06';
const ORGANIZATIONS = 12;
const PARALLEL_RUNS = 4;

describe('billing runs at once on PostgreSQL', () => {
  it(`bills each of ${ORGANIZATIONS} organisations once across ${PARALLEL_RUNS} parallel runs`, async () => {
    const db = t.database.db;
    const organizations = await Promise.all(
      Array.from({ length: ORGANIZATIONS }, async () => {
        const id = await newOrganization(db, { balanceCents: 10_000 });
        await newApplicationWithUsage(db, id, { plan: 'advance', billingCycle: CYCLE, mau: 100 });
        return id;
      }),
    );
    const billing = monthlyRunService({ db, productName: 'Social' });

    const runs = await Promise.all(
      Array.from({ length: PARALLEL_RUNS }, (_, index) =>
        // Half the runs bill everyone, half one organisation each, as an operator's retry might.
        billing.runMonthlyBilling(
          index % 2 === 0 ? { cycle: CYCLE } : { cycle: CYCLE, organizationId: organizations[index] },
        ),
      ),
    );

    expect(runs.flatMap((run) => run.failed)).toEqual([]);
    const billed = runs.flatMap((run) => run.billed.map((invoice) => invoice.organizationId));
    expect([...billed].sort()).toEqual([...organizations].sort());
    for (const id of organizations) {
      expect(await countServiceCharges(db, id, CYCLE)).toBe(1);
      expect((await balanceMovements(db, id)).map((movement) => movement.amountCents)).toEqual([-900]);
      expect((await organizationRow(db, id)).balanceCents).toBe(9100);
    }
  });
});
