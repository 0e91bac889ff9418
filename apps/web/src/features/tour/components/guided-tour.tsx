import type { TourOutcome } from '@portal/contracts';
import { IconRoute } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../../components/plain/buttons';
import { useSignedInAccount } from '../../../lib/account';
import { errorText } from '../../../lib/api-error';
import { useTranslation } from '../../../lib/i18n';
import { toastError } from '../../../lib/toasts';
import { useUpdateTour } from '../api/update-tour';
import type { RunningTour } from '../run-tour';
import { isStartTourRequest } from '../tour-request';
import classes from './guided-tour.module.css';

/**
 * The guided tour on the application list (decision 039): started by /open-appcues (navigation
 * state), or from the offer the organisation's creator sees after setup until they finish or skip
 * it. The tour's library loads only when a tour starts.
 */
export function GuidedTour() {
  const { t } = useTranslation();
  const account = useSignedInAccount();
  const location = useLocation();
  const navigate = useNavigate();
  const { mutate: updateTour, isPending: saving } = useUpdateTour();
  const [running, setRunning] = useState(false);
  const runningTour = useRef<RunningTour | null>(null);
  // Read when a tour ends, which may be long after it started.
  const offered = useRef(account.offerTour);
  offered.current = account.offerTour;

  const saveOutcome = useCallback(
    (outcome: TourOutcome) =>
      updateTour({ outcome }, { onError: (error) => toastError(errorText(error), error.message) }),
    [updateTour],
  );

  const start = useCallback(() => {
    if (runningTour.current) return;
    setRunning(true);
    import('../run-tour')
      .then(({ runTour }) => {
        runningTour.current = runTour((outcome) => {
          runningTour.current = null;
          setRunning(false);
          if (offered.current) saveOutcome(outcome);
        });
      })
      .catch(() => {
        setRunning(false);
        toastError(t('tour.loadError'));
      });
  }, [saveOutcome, t]);

  const requested = isStartTourRequest(location.state);
  useEffect(() => {
    if (!requested) return;
    // Used once: the address stays, without the request, so a reload does not start the tour again.
    void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: null });
    start();
  }, [requested, navigate, location.pathname, location.search, start]);

  // Leaving the page (the browser's back button) takes the tour with it.
  useEffect(
    () => () => {
      runningTour.current?.stop();
      runningTour.current = null;
    },
    [],
  );

  if (!account.offerTour || running) return null;
  return (
    <section className={classes.offer} aria-labelledby="tour-offer-title">
      <IconRoute size={28} className={classes.icon} aria-hidden />
      <div className={classes.text}>
        <h2 id="tour-offer-title" className={classes.title}>
          {t('tour.offer.title')}
        </h2>
        <p>{t('tour.offer.text')}</p>
      </div>
      <div className={classes.actions}>
        <Button onClick={start}>{t('tour.offer.start')}</Button>
        <Button variant="default" loading={saving} onClick={() => saveOutcome('skipped')}>
          {t('tour.offer.skip')}
        </Button>
      </div>
    </section>
  );
}
