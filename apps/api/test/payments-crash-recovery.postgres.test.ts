import { describe, it } from 'vitest';
import { paymentsSurviveSigkill, paymentsSurviveSigkillWithEveryKind } from './crash-recovery.ts';
import { createScratchDatabase } from './scratch-database.ts';

describe('card payments killed with SIGKILL, on PostgreSQL', () => {
  it('settles each charge the gateway made once after the restart, with a consistent balance', async () => {
    await paymentsSurviveSigkillWithEveryKind(async () => {
      const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'portal_payments_crash');
      try {
        return await paymentsSurviveSigkill(scratch.url);
      } finally {
        await scratch.drop();
      }
    });
  }, 180_000);
});
