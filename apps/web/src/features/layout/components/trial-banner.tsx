import { IconClockHour4 } from '@tabler/icons-react';
import { useSignedInAccount } from '../../../lib/account';
import { useTranslation } from '../../../lib/i18n';
import { trialBannerState, trialDaysLeft } from '../../../lib/trial-banner';
import classes from './frame.module.css';

export function TrialBanner() {
  const { t } = useTranslation();
  const { trialEndAt, havePaymentProfile } = useSignedInAccount();
  const now = new Date();
  const state = trialBannerState(trialEndAt, havePaymentProfile, now);
  if (!trialEndAt || state === 'hidden') return null;
  return (
    <div role="status" className={classes.trial} data-state={state}>
      <IconClockHour4 size={18} aria-hidden />
      <p>
        {state === 'danger'
          ? t('layout.trial.ended')
          : t('layout.trial.daysLeft', { count: trialDaysLeft(trialEndAt, now) })}
      </p>
    </div>
  );
}
