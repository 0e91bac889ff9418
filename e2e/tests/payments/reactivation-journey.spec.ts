import type { Page } from '@playwright/test';
import { PLAN_PRICES_MICRO_USD, type Application } from '@portal/contracts';
import { Applications, sdkPing, sdkPingRefused } from '../../support/applications.ts';
import {
  applicationsInUse,
  billMonthLeftDue,
  billingCycleOf,
  clockedTest,
  shownDate,
  startOfMonth,
} from '../../support/billing-journey.ts';
import { transactionRow, transactionsTable } from '../../support/billing.ts';
import { expect } from '../../support/fixtures.ts';
import { waitForMail } from '../../support/mail-store.ts';
import { Operator } from '../../support/operator.ts';
import { TEST_CARDS, addCardToInactiveAccount } from '../../support/payments.ts';
import { mainNavigation } from '../../support/ui.ts';

const DAY_MS = 86_400_000;

const appCard = (page: Page, app: Application) => page.getByRole('article', { name: app.name, exact: true });
const inactiveAlert = (page: Page) =>
  page.getByRole('status').filter({ hasText: 'Your account is inactive.' });

/*
 * An account made inactive by a billing run, for real: the sample SDK client makes monthly active
 * users, the operator bills the month on a balance that cannot pay it, and the portal's clock (a portal
 * of the test's own, support/billing-journey.ts) moves past the 30 days of grace, when the deactivation
 * job stops the applications in their regions. The owner then adds a card on /manage-payment; it pays
 * what is due, the account is active again and the reactivation job brings the applications back.
 */

clockedTest(
  'an account a billing run made inactive: its applications stop after the grace period, a card added pays what is due, the reactivation dialog shows, and the applications come back',
  async ({ page, users, clockedPortal }) => {
    clockedTest.setTimeout(300_000);
    const billedMonthAt = startOfMonth(new Date(), 1);
    const nextMonthAt = startOfMonth(new Date(), 2);
    // A day past the 30 days of grace the billing run's notice gives.
    const graceOverAt = new Date(nextMonthAt.getTime() + 31 * DAY_MS);
    const cycle = billingCycleOf(billedMonthAt);
    const operator = new Operator(clockedPortal);
    await clockedPortal.runFrom(billedMonthAt);

    const owner = await users.signedIn({ label: 'reactivation-owner' });
    const apps = new Applications(page.request, clockedPortal.baseURL);
    const inUse = await clockedTest.step(
      'the owner creates two apps in two regions, and the sample SDK client connects users of each',
      () =>
        applicationsInUse(apps, clockedPortal.baseURL, [
          { fields: { name: 'Nebula Live', plan: 'max', region: 'EU' }, endUsers: ['alice', 'bob'] },
          { fields: { name: 'Comet Chat', plan: 'basic', region: 'SG' }, endUsers: ['dana'] },
        ]),
    );
    /** The sample SDK client connects another user to each app. */
    const connectToEach = async () => {
      for (const { app, apiKey } of inUse)
        await sdkPing(clockedPortal.baseURL, app.region.toLowerCase(), apiKey, 'erin');
    };
    /** The sample SDK client tries to, and each region refuses: answers why, app by app. */
    const refusalsOfEach = async () => {
      const refusals: string[] = [];
      for (const { app, apiKey } of inUse)
        refusals.push(await sdkPingRefused(clockedPortal.baseURL, app.region.toLowerCase(), apiKey, 'erin'));
      return refusals;
    };

    const balance = 0.1;
    await operator.grantCredit(owner.email, balance.toFixed(2), 'Welcome credit');
    const charge = (2 * PLAN_PRICES_MICRO_USD.max + PLAN_PRICES_MICRO_USD.basic) / 1_000_000;
    const { invoice } = await clockedTest.step(
      'the month ends and the operator bills it: the balance cannot pay the charge, the account is inactive and the owner is told',
      async () => {
        await clockedPortal.runFrom(nextMonthAt);
        const billed = await billMonthLeftDue(operator, owner, {
          cycle,
          applications: inUse.length,
          charge,
          paid: balance,
        });
        expect(billed.notice.text).toContain(
          'All applications will be deactivated within 30 days unless the due amount is paid.',
        );
        return billed;
      },
    );
    const { transactionId, due } = invoice;

    await clockedTest.step(
      'within the grace period the apps keep running: the list says the account is inactive, the apps are active and the SDK connects',
      async () => {
        // A month on, the session has expired.
        await users.signIn(owner);
        await page.goto('/apps/asc');
        await expect(inactiveAlert(page)).toBeVisible();
        for (const { app } of inUse)
          await expect(appCard(page, app).getByText('Active', { exact: true })).toBeVisible();
        await connectToEach();
      },
    );

    await clockedTest.step(
      'the grace period ends unpaid: the apps are deactivated in their regions, the list shows them temporarily inactive and the SDK is refused',
      async () => {
        await clockedPortal.runFrom(graceOverAt);
        await users.signIn(owner);
        await expect
          .poll(async () => (await apps.list()).data.map((app) => app.state), {
            timeout: 45_000,
            intervals: [250, 500, 1_000],
          })
          .toEqual(inUse.map(() => 'temporary_inactive'));
        await page.goto('/apps/asc');
        await expect(inactiveAlert(page)).toBeVisible();
        for (const { app } of inUse) {
          const card = appCard(page, app);
          await expect(card.getByText('Temporarily inactive', { exact: true })).toBeVisible();
          // The card dates the deactivation instead of the creation.
          await expect(card.getByText('Deactivated', { exact: true })).toBeVisible();
          await expect(card.getByText(shownDate(graceOverAt), { exact: true })).toBeVisible();
        }
        for (const refusal of await refusalsOfEach())
          expect(refusal).toContain('403: The network is inactive; SDK sessions need an active network');
      },
    );

    await clockedTest.step(
      'the owner adds the card 4242 on Manage payment: it pays what is due and the reactivation dialog says the apps are back within 24 hours',
      async () => {
        await mainNavigation(page).getByRole('link', { name: 'Manage payment' }).click();
        await expect(page).toHaveURL(/\/manage-payment$/);
        await expect(
          page.getByText('Your account is inactive. Add a card: what is due is paid with it', {
            exact: false,
          }),
        ).toBeVisible();
        await expect(page.getByLabel('Billing address')).toBeDisabled();

        await addCardToInactiveAccount(page, TEST_CARDS.succeeds);
        await expect(page.getByLabel('Billing address')).toBeEnabled();

        const receipt = await waitForMail(owner.email, new RegExp(`payment receipt: USD ${due.toFixed(2)}$`));
        expect(receipt.text).toContain('with the VISA card ending in 4242.');
        expect(receipt.text).toContain(`For: Invoice INV-${transactionId}`);
      },
    );

    await clockedTest.step('Billing shows the charge paid, with nothing left to pay', async () => {
      await mainNavigation(page).getByRole('link', { name: 'Billing', exact: true }).click();
      await expect(page).toHaveURL(/\/billing\/asc$/);
      const row = transactionRow(page, transactionId);
      await expect(row).toContainText('Service charge');
      await expect(row).toContainText('Paid');
      await expect(transactionsTable(page).getByRole('button', { name: /^Pay transaction/ })).toHaveCount(0);
    });

    await clockedTest.step(
      'the account is active and the apps come back: the list has no inactive alert, the apps are active and the SDK connects again',
      async () => {
        await page.goto('/apps/asc');
        await page.reload();
        await expect(appCard(page, inUse[0]!.app)).toBeVisible();
        await expect(inactiveAlert(page)).toHaveCount(0);
        await expect(page.getByRole('link', { name: 'Create application' })).toBeVisible();
        await apps.waitUntilAllActive(inUse.length);
        await page.reload();
        for (const { app } of inUse) {
          const card = appCard(page, app);
          await expect(card.getByText('Active', { exact: true })).toBeVisible();
          await expect(card.getByText('Created', { exact: true })).toBeVisible();
        }
        await connectToEach();
      },
    );
  },
);
