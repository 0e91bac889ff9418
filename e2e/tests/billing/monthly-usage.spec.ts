import type { Page } from '@playwright/test';
import type { MonthlyUsage } from '@portal/contracts';
import { expectNoSeriousA11yViolations } from '../../support/axe.ts';
import { expect, test } from '../../support/fixtures.ts';

/** The chart's own script: the charting library comes with it alone. */
const CHART_CHUNK = /\/assets\/monthly-usage-chart-[\w-]+\.js$/;

/** The 12 months up to this one (UTC), oldest first, as the endpoint answers them. */
function lastTwelveMonths(): string[] {
  const now = new Date();
  return Array.from({ length: 12 }, (_, index) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11 + index, 1)).toISOString().slice(0, 7),
  );
}

/** Serves GET /api/v1/accounts/usages/monthly: two applications, one growing, one started in month 9. */
async function serveMonthlyUsage(page: Page) {
  const answer: MonthlyUsage[] = lastTwelveMonths().map((month, index) => ({
    month,
    applications: [
      { applicationId: 'app-nebula', name: 'Nebula Chat', mau: 400 + index * 150 },
      { applicationId: 'app-comet', name: 'Comet Live', mau: index < 8 ? 0 : (index - 7) * 600 },
    ],
  }));
  await page.route('**/api/v1/accounts/usages/monthly', (route) => route.fulfill({ json: answer }));
}

/** Every script the page asked for, as it asks. */
function scriptsRequested(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') urls.push(request.url());
  });
  return urls;
}

test.describe('subscription: monthly active users per application', () => {
  test('the chart draws a line per application over 12 months, with its figures in a table for screen readers', async ({
    page,
    users,
  }) => {
    await users.signedIn({ label: 'usage-chart' });
    await serveMonthlyUsage(page);
    await page.goto('/subscription-licenses/asc');

    const section = page.getByRole('region', { name: 'Monthly active users per application' });
    await expect(section).toContainText('The last 12 months');
    const chart = section.getByRole('img', { name: /^Line chart of monthly active users per application/ });
    await expect(chart).toBeVisible();
    await expect(chart.locator('.recharts-line')).toHaveCount(2);
    await expect(chart.locator('.recharts-line-curve')).toHaveCount(2);
    await expect(chart).toContainText('Nebula Chat');
    await expect(chart).toContainText('Comet Live');

    const table = section.getByRole('table', { name: /^Monthly active users per application/ });
    await expect(table.getByRole('row')).toHaveCount(13);
    await expect(table.getByRole('row').last()).toContainText('2,050');
    await expect(table.getByRole('row').last()).toContainText('2,400');
    await expect(table.getByRole('row').last()).toContainText('4,450');
    await expectNoSeriousA11yViolations(page, '/subscription-licenses/asc with the monthly chart');
  });

  test('the sign-in page, the landing and a page without usage never load the chart', async ({
    page,
    users,
  }) => {
    const scripts = scriptsRequested(page);
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await users.signedIn({ label: 'usage-no-chart' });
    await page.goto('/apps/asc');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // A new organisation has had no usage: the real endpoint answers 12 empty months.
    const answered = page.waitForResponse('**/api/v1/accounts/usages/monthly');
    await page.goto('/subscription-licenses/asc');
    const months = (await (await answered).json()) as MonthlyUsage[];
    expect(months.map((month) => month.month)).toEqual(lastTwelveMonths());
    await expect(page.getByText('No monthly active users in the last 12 months.')).toBeVisible();
    expect(scripts.filter((url) => CHART_CHUNK.test(url))).toEqual([]);

    await serveMonthlyUsage(page);
    await page.reload();
    await expect(page.getByRole('img', { name: /^Line chart/ })).toBeVisible();
    expect(scripts.filter((url) => CHART_CHUNK.test(url))).toHaveLength(1);
  });
});
