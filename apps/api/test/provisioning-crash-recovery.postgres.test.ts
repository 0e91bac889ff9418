import { describe, expect, it } from 'vitest';
import { RECOVERY_BOUND_MS, provisioningSurvivesSigkill } from './crash-recovery.ts';
import { createScratchDatabase } from './scratch-database.ts';

/*
 * On PostgreSQL other servers may share the queue, so a restarted server cannot tell a dead
 * server's job from a live one's: the job's short expiry and pg-boss's maintenance give it back.
 */
describe('provisioning after the server is killed, on PostgreSQL', () => {
  it('makes the applications the dead server was provisioning active within two minutes of the restart', async () => {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'portal_crash');
    try {
      expect(await provisioningSurvivesSigkill(scratch.url)).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
    } finally {
      await scratch.drop();
    }
  }, 300_000);
});
