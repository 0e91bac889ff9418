// @vitest-environment jsdom
import type { Account } from '@portal/contracts';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderSignedInPart } from '../../../components/render-for-test';
import { setAccount } from '../../../lib/account';
import { TrialBanner } from './trial-banner';

const DAY_MS = 24 * 60 * 60 * 1000;

function renderBanner(fields: Pick<Account, 'trialEndAt' | 'havePaymentProfile' | 'permissions'>) {
  setAccount({ accountStatus: 'active', ...fields } as Account);
  return renderSignedInPart(<TrialBanner />);
}

const endedAt = () => new Date(Date.now() - DAY_MS).toISOString();

afterEach(cleanup);

describe('the trial banner once the trial has ended', () => {
  it('without a card, leads a member who sees billing to Manage payment', () => {
    renderBanner({ trialEndAt: endedAt(), havePaymentProfile: 'false', permissions: ['VIEW_BILLING'] });
    const banner = screen.getByRole('status');
    expect(banner.dataset.state).toBe('danger');
    expect(banner.textContent).toBe('Your free trial has ended. Add a card');
    expect(screen.getByRole('link', { name: 'Add a card' }).getAttribute('href')).toBe(
      '/manage-payment',
    );
  });

  it('without a card, asks a member without billing to turn to an administrator', () => {
    renderBanner({ trialEndAt: endedAt(), havePaymentProfile: 'false', permissions: ['VIEW_APPLICATION'] });
    expect(screen.getByRole('status').textContent).toBe(
      'Your free trial has ended. Ask your administrator to add a card.',
    );
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('with a card, is not shown', () => {
    renderBanner({ trialEndAt: endedAt(), havePaymentProfile: 'true', permissions: [] });
    expect(screen.queryByRole('status')).toBeNull();
  });
});
