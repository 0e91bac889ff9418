import { describe, expect, it } from 'vitest';
import { RECOVERY_BOUND_MS, provisioningSurvivesSigkill } from './crash-recovery.ts';

describe('provisioning after the server is killed, on the embedded database', () => {
  it('makes the applications the dead server was provisioning active soon after the restart, once each', async () => {
    expect(await provisioningSurvivesSigkill()).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
  }, 240_000);
});
