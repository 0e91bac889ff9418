import { TRIAL_WARNING_DAYS } from '@portal/contracts';

export type TrialBannerState = 'hidden' | 'danger' | 'warning' | 'default';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days left in the trial, a started day counting as one; 0 once it has ended. */
export function trialDaysLeft(trialEndAt: string, now: Date): number {
  return Math.max(0, Math.ceil((Date.parse(trialEndAt) - now.getTime()) / DAY_MS));
}

/**
 * §4: shown only when there is a trial end and the trial is not (ended and either without
 * or with a payment profile). An ended trial is therefore hidden whenever the account says
 * whether it has a payment profile; only an ended trial with no such answer shows danger.
 */
export function trialBannerState(
  trialEndAt: string | null | undefined,
  havePaymentProfile: string | undefined,
  now: Date,
): TrialBannerState {
  if (!trialEndAt || Number.isNaN(Date.parse(trialEndAt))) return 'hidden';
  if (Date.parse(trialEndAt) <= now.getTime()) {
    const paymentProfileKnown = havePaymentProfile === 'true' || havePaymentProfile === 'false';
    return paymentProfileKnown ? 'hidden' : 'danger';
  }
  return trialDaysLeft(trialEndAt, now) <= TRIAL_WARNING_DAYS ? 'warning' : 'default';
}
