import { describe, it } from 'vitest';
import { paymentsSurviveSigkill, paymentsSurviveSigkillWithEveryKind } from './crash-recovery.ts';

describe('card payments killed with SIGKILL, on the embedded database', () => {
  it('settles each charge the gateway made once after the restart, with a consistent balance', async () => {
    await paymentsSurviveSigkillWithEveryKind(() => paymentsSurviveSigkill());
  }, 180_000);
});
