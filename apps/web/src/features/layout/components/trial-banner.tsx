import { IconClockHour4 } from '@tabler/icons-react';
import { TextLink } from '../../../components/plain/buttons';
import { useSignedInAccount } from '../../../lib/account';
import { mayAccess } from '../../../lib/guard';
import { useBrowserRender } from '../../../lib/hydration';
import { useTranslation } from '../../../lib/i18n';
import { trialBannerState, trialDaysLeft } from '../../../lib/trial-banner';
import classes from './frame.module.css';

/** §4 trial banner: days left, or an ended trial without a saved card (decision 041). */
export function TrialBanner() {
  const { t } = useTranslation();
  const { trialEndAt, havePaymentProfile, permissions } = useSignedInAccount();
  // The days left are counted on the browser's clock, which the server render cannot know.
  const browserRender = useBrowserRender();
  if (!browserRender || !trialEndAt) return null;
  const now = new Date();
  const state = trialBannerState(trialEndAt, havePaymentProfile, now);
  if (state === 'hidden') return null;
  return (
    <div role="status" className={classes.trial} data-state={state}>
      <IconClockHour4 size={18} aria-hidden />
      {state === 'danger' ? (
        <p>
          {t('layout.trial.ended')}{' '}
          {mayAccess('VIEW_BILLING', { permissions }) ? (
            <TextLink to="/manage-payment">{t('layout.trial.addCard')}</TextLink>
          ) : (
            t('layout.trial.askAdmin')
          )}
        </p>
      ) : (
        <p>{t('layout.trial.daysLeft', { count: trialDaysLeft(trialEndAt, now) })}</p>
      )}
    </div>
  );
}
