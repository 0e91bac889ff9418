import { describe, expect, it } from 'vitest';
import { trialBannerState, trialDaysLeft } from './trial-banner';

const now = new Date('2025-03-10T12:00:00Z');
const inDays = (days: number) => new Date(now.getTime() + days * 24 * 60 * 60 * 1000).toISOString();

describe('trialBannerState', () => {
  it('is hidden without a trial end', () => {
    expect(trialBannerState(null, 'false', now)).toBe('hidden');
    expect(trialBannerState(undefined, 'true', now)).toBe('hidden');
    expect(trialBannerState('not a date', 'false', now)).toBe('hidden');
  });

  it('is the default banner while more than three days remain', () => {
    expect(trialBannerState(inDays(14), 'false', now)).toBe('default');
    expect(trialBannerState(inDays(3.5), 'true', now)).toBe('default');
  });

  it('warns when three or fewer days remain', () => {
    expect(trialBannerState(inDays(3), 'false', now)).toBe('warning');
    expect(trialBannerState(inDays(0.1), 'true', now)).toBe('warning');
  });

  it('shows danger once the trial has ended while no card is saved', () => {
    expect(trialBannerState(inDays(0), 'false', now)).toBe('danger');
    expect(trialBannerState(inDays(-2), 'false', now)).toBe('danger');
  });

  it('is hidden once the trial has ended and a card is saved', () => {
    expect(trialBannerState(inDays(0), 'true', now)).toBe('hidden');
    expect(trialBannerState(inDays(-2), 'true', now)).toBe('hidden');
  });
});

describe('trialDaysLeft', () => {
  it('counts a started day as a whole day', () => {
    expect(trialDaysLeft(inDays(14), now)).toBe(14);
    expect(trialDaysLeft(inDays(2.2), now)).toBe(3);
    expect(trialDaysLeft(inDays(0.01), now)).toBe(1);
  });

  it('never goes below zero', () => {
    expect(trialDaysLeft(inDays(-5), now)).toBe(0);
  });
});
