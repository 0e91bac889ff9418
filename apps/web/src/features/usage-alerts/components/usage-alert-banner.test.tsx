// @vitest-environment jsdom
import type { Account, ListUsageAlertNoticesResponse, Permission, UsageAlertNotice } from '@portal/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router';
import { stubApi } from '../../../components/render-for-test';
import { setAccount } from '../../../lib/account';
import { USAGE_ALERT_NOTICES_QUERY_KEY } from '../api/list-usage-alert-notices';
import { noticeForTest } from '../usage-alert-notice-for-test';
import { UsageAlertBanner } from './usage-alert-banner';

configure({ asyncUtilTimeout: 10_000 });

const notice = (id: string, overrides: Partial<UsageAlertNotice>) => noticeForTest({ id, ...overrides });

let api: ReturnType<typeof stubApi>;
beforeEach(() => {
  api = stubApi();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The banner as the application list shows it, plain (no Mantine), at /apps/asc, with a marker after it. */
function renderBanner(permissions: Permission[]) {
  setAccount({ permissions, accountStatus: 'active' } as Account);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/apps/asc']}>
        <Routes>
          <Route
            path="/apps/:sub"
            element={
              <>
                <UsageAlertBanner />
                <p>The list</p>
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { settled: () => client.getQueryState(USAGE_ALERT_NOTICES_QUERY_KEY)?.status };
}

const answerNotices = (
  body: ListUsageAlertNoticesResponse | { code: string; message: string },
  status = 200,
) => api.answer('GET', '/api/v1/usage-alerts/notices', body, status);

describe('the usage alert banner', { timeout: 30_000 }, () => {
  it('says each alert crossed this month, linking a low balance to a top-up and the others to the settings', async () => {
    answerNotices({
      results: [
        notice('n-1', { kind: 'mau_percent', threshold: 80, figure: 8_250, licenseMau: 10_000 }),
        notice('n-2', { kind: 'mau', threshold: 50_000, figure: 52_000 }),
        notice('n-3', { kind: 'projected_charge', threshold: 40_000, figure: 41_250 }),
        notice('n-4', { kind: 'low_balance', threshold: 5_000, figure: 1_240 }),
      ],
    });
    renderBanner(['VIEW_BILLING', 'VIEW_PLAN_DETAIL', 'MANAGE_USAGE_ALERTS']);

    const region = await screen.findByRole('region', { name: 'Usage alerts this month' });
    const notices = within(region).getAllByRole('status');
    expect(notices.map((item) => item.textContent)).toEqual([
      'You have used 82% of your 10,000-MAU license this month. Usage alerts',
      'Your monthly active users reached 52,000 this month, over your alert of 50,000. Usage alerts',
      'This month’s projected charge of USD 412.50 is over your alert of USD 400.00. Usage alerts',
      'Your balance of USD 12.40 is below your alert of USD 50.00. Top up balance',
    ]);
    expect(within(notices[0]!).getByRole('link', { name: 'Usage alerts' }).getAttribute('href')).toBe(
      '/subscription-licenses/asc#usage-alerts',
    );
    expect(within(notices[3]!).getByRole('link', { name: 'Top up balance' }).getAttribute('href')).toBe(
      '/payment/asc/top-up',
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows nothing when no alert was crossed, or the notices cannot be read', async () => {
    answerNotices({ results: [] });
    const none = renderBanner(['VIEW_PLAN_DETAIL']);
    screen.getByText('The list');
    await vi.waitFor(() => expect(none.settled()).toBe('success'), { timeout: 10_000 });
    expect(screen.queryByRole('region')).toBeNull();
    cleanup();

    answerNotices({ code: 'UNAVAILABLE', message: 'Resting.' }, 503);
    const failed = renderBanner(['VIEW_PLAN_DETAIL']);
    await vi.waitFor(() => expect(failed.settled()).toBe('error'), { timeout: 10_000 });
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.queryByText(/Resting/)).toBeNull();
  });

  it('does not ask for notices for a member who cannot see plan details', () => {
    renderBanner(['VIEW_APPLICATION', 'EDIT_APPLICATION']);
    screen.getByText('The list');
    expect(api.sent).toEqual([]);
  });
});
