import { describe, it } from 'vitest';
import { billingRunSurvivesSigkill } from './crash-recovery.ts';
import { createScratchDatabase } from './scratch-database.ts';

describe('a billing run killed with SIGKILL, on PostgreSQL', () => {
  it('bills every organisation exactly once after the restart and a second run', async () => {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'portal_billing_crash');
    try {
      await billingRunSurvivesSigkill(scratch.url);
    } finally {
      await scratch.drop();
    }
  }, 300_000);
});
