import { TRIAL_WARNING_DAYS } from '@portal/contracts';

export type TrialBannerState = 'hidden' | 'danger' | 'warning' | 'default';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days left in the trial, a started day counting as one; 0 once it has ended. */
export function trialDaysLeft(trialEndAt: string, now: Date): number {
  return Math.max(0, Math.ceil((Date.parse(trialEndAt) - now.getTime()) / DAY_MS));
}

/**
 * §4: danger once the trial has ended, warning when 3 or fewer days remain, default otherwise. Its
 * rule for hiding, "not (ended and either no payment profile or a payment profile present)", would
 * hide every ended trial, since havePaymentProfile is always 'true' or 'false', and leave danger
 * unreachable. Decision 041 reads it as: an ended trial is hidden once a card is saved (nothing is
 * left to do) and shows danger while none is.
 */
export function trialBannerState(
  trialEndAt: string | null | undefined,
  havePaymentProfile: 'true' | 'false',
  now: Date,
): TrialBannerState {
  if (!trialEndAt || Number.isNaN(Date.parse(trialEndAt))) return 'hidden';
  if (Date.parse(trialEndAt) <= now.getTime()) return havePaymentProfile === 'true' ? 'hidden' : 'danger';
  return trialDaysLeft(trialEndAt, now) <= TRIAL_WARNING_DAYS ? 'warning' : 'default';
}
