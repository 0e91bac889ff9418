// @vitest-environment jsdom
import type { MonthlyUsage } from '@portal/contracts';
import { QueryClient } from '@tanstack/react-query';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderSignedInPart } from '../../../components/render-for-test';
import { MONTHLY_USAGES_QUERY_KEY } from '../api/list-monthly-usages';
import { MonthlyUsageSection } from './monthly-usage-section';

const CHART_SIZE = { width: 640, height: 300 };
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

beforeAll(() => {
  // jsdom lays nothing out: the chart's container is told its size, or it draws nothing.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(private readonly callback: ResizeObserverCallback) {}
      observe(target: Element) {
        this.callback(
          [{ target, contentRect: { ...CHART_SIZE, top: 0, left: 0 } } as unknown as ResizeObserverEntry],
          this as unknown as ResizeObserver,
        );
      }
      unobserve() {}
      disconnect() {}
    },
  );
});
afterEach(cleanup);

/** The section with the answer of GET /api/v1/accounts/usages/monthly already fetched. */
function renderAnswered(answer: MonthlyUsage[]) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(MONTHLY_USAGES_QUERY_KEY, answer);
  return renderSignedInPart(<MonthlyUsageSection />, queryClient);
}

const months = (count: number) =>
  Array.from({ length: count }, (_, index) => `2025-${String(index + 1).padStart(2, '0')}`);

describe('the monthly usage chart', () => {
  it('draws a line per application, named as a whole, with its figures in a table', async () => {
    renderAnswered(
      months(12).map((month, index) => ({
        month,
        applications: [
          { applicationId: 'app-chat', name: 'Chat', mau: index * 100 },
          { applicationId: 'app-video', name: 'Video', mau: index === 11 ? 1_500 : 0 },
        ],
      })),
    );
    const section = screen.getByRole('region', { name: 'Monthly active users per application' });
    expect(within(section).getByText('The last 12 months, Jan 2025 to Dec 2025')).toBeDefined();

    // The chart is a chunk of its own: importing it (recharts) takes seconds on a busy machine.
    const chart = await within(section).findByRole(
      'img',
      {
        name: 'Line chart of monthly active users per application, Jan 2025 to Dec 2025. The figures follow in a table.',
      },
      { timeout: 20_000 },
    );
    expect(chart.querySelectorAll('.recharts-line')).toHaveLength(2);
    expect(within(chart).getByText('Chat')).toBeDefined();
    expect(within(chart).getByText('Video')).toBeDefined();

    const table = within(section).getByRole('table', {
      name: 'Monthly active users per application, Jan 2025 to Dec 2025',
    });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(13);
    expect(rows.map((row) => [...row.children].map((cell) => cell.textContent))).toEqual([
      ['Month', 'Chat', 'Video', 'Total'],
      ...months(12).map((_, index) => [
        `${MONTH_NAMES[index]} 2025`,
        (index * 100).toLocaleString('en-US'),
        index === 11 ? '1,500' : '0',
        (index * 100 + (index === 11 ? 1_500 : 0)).toLocaleString('en-US'),
      ]),
    ]);
  });

  it('says there was no usage, and loads no chart, when no application had any in the 12 months', () => {
    renderAnswered(months(12).map((month) => ({ month, applications: [] })));
    expect(screen.getByText('No monthly active users in the last 12 months.')).toBeDefined();
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
