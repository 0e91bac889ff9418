import { describe, it } from 'vitest';
import { billingRunSurvivesSigkill } from './crash-recovery.ts';

describe('a billing run killed with SIGKILL, on the embedded database', () => {
  it('bills every organisation exactly once after the restart and a second run', async () => {
    await billingRunSurvivesSigkill();
  }, 240_000);
});
