import type { Account } from '@portal/contracts';
import type { Page } from '@playwright/test';
import { expect, test } from '../../support/fixtures.ts';
import { untilTakenOver } from '../../support/first-render.ts';
import { fillCard, TEST_CARDS } from '../../support/payments.ts';
import { screenshotsAtWidths } from '../../support/screenshots.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The banner as the browser shows it with its clock at `at` (the banner counts on the browser's clock). */
async function bannerAt(page: Page, at: number) {
  await page.clock.setFixedTime(at);
  await page.goto('/apps/asc');
  // The banner appears once the browser has taken the server-rendered page over.
  await untilTakenOver(page);
  return page.getByRole('status').filter({ hasText: /free trial/ });
}

test('the trial banner: days left, a warning in the last three days, and an ended trial with and without a saved card (§4, decision 041)', async ({
  page,
  users,
}) => {
  await users.signedIn({ label: 'trial-banner' });
  const account = (await (await page.request.get('/api/v1/accounts/me')).json()) as Account;
  expect(account.trialEndAt).not.toBeNull();
  const trialEnd = Date.parse(account.trialEndAt!);

  await test.step('more than three days left: the default banner', async () => {
    const banner = await bannerAt(page, trialEnd - 10 * DAY_MS);
    await expect(banner).toHaveText('10 days left in your free trial');
    await expect(banner).toHaveAttribute('data-state', 'default');
    await screenshotsAtWidths(page, 'trial-banner-default');
  });

  await test.step('three days or fewer: the warning', async () => {
    const banner = await bannerAt(page, trialEnd - 2.5 * DAY_MS);
    await expect(banner).toHaveText('3 days left in your free trial');
    await expect(banner).toHaveAttribute('data-state', 'warning');
    await screenshotsAtWidths(page, 'trial-banner-warning');
  });

  await test.step('ended without a saved card: danger, with the way to add one', async () => {
    const banner = await bannerAt(page, trialEnd + DAY_MS);
    await expect(banner).toHaveText('Your free trial has ended. Add a card');
    await expect(banner).toHaveAttribute('data-state', 'danger');
    await screenshotsAtWidths(page, 'trial-banner-ended');
    await banner.getByRole('link', { name: 'Add a card' }).click();
    await expect(page).toHaveURL(/\/manage-payment$/);
  });

  await test.step('ended with a saved card: no banner', async () => {
    await page.getByRole('button', { name: 'Add card' }).click();
    const adding = page.getByRole('dialog', { name: 'Add a card' });
    await fillCard(adding, TEST_CARDS.succeeds);
    await adding.getByRole('button', { name: 'Save card' }).click();
    await expect(page.getByText('The VISA ending in 4242 was added.')).toBeVisible();

    const banner = await bannerAt(page, trialEnd + DAY_MS);
    await expect(page.getByRole('button', { name: /^Account menu of / })).toBeVisible();
    await expect(banner).toHaveCount(0);
    await screenshotsAtWidths(page, 'trial-banner-ended-with-card');
  });
});
