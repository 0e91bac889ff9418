import type { Page } from '@playwright/test';
import type { ListUsageAlertNoticesResponse } from '@portal/contracts';
import { Applications, sdkPing } from '../../support/applications.ts';
import { ACME, expect, test } from '../../support/fixtures.ts';
import { linkIn, mailsTo, waitForMail, type StoredMail } from '../../support/mail-store.ts';
import { joinAs, Members } from '../../support/members.ts';
import { Operator, sharedPortal } from '../../support/operator.ts';
import { screenshotsAtWidths } from '../../support/screenshots.ts';

const LICENSE_MAU = 5;

/** A usage alert's mail, whatever its threshold. */
const USAGE_ALERT_SUBJECT = / usage alert: /;
const licenseAlertSubject = (percent: number) =>
  new RegExp(` usage alert: ${percent} % of the licence used$`);

/** The usage alerts the owner was mailed, oldest first. */
const usageAlertMails = (email: string): StoredMail[] =>
  mailsTo(email).filter((mail) => USAGE_ALERT_SUBJECT.test(mail.subject));

/** The application list's warnings of the usage alerts crossed this month. */
const noticesRegion = (page: Page) => page.getByRole('region', { name: 'Usage alerts this month' });

/** The warning of a percentage of the licence crossed. */
const licenseNotice = (page: Page, percent: number) =>
  noticesRegion(page).getByText(`You have used ${percent}% of your ${LICENSE_MAU}-MAU license this month.`, {
    exact: true,
  });

/** The section's thresholds in words. */
const alertsListed = (page: Page) =>
  page
    .getByRole('region', { name: 'Usage alerts' })
    .getByRole('list', { name: 'Alerts' })
    .getByRole('listitem');

/** The month's notices, as the banner reads them. */
async function noticesOf(page: Page) {
  const response = await page.request.get('/api/v1/usage-alerts/notices');
  expect(response.status()).toBe(200);
  return ((await response.json()) as ListUsageAlertNoticesResponse).results;
}

/*
 * Usage alerts for real (decision 044): the sample SDK client makes monthly active users, the
 * operator CLI imports them, and the portal mails the owner once per threshold and month and warns
 * above the application list until the month ends or the threshold is raised.
 */
test('a flat-rate organisation crosses 80 % of its licence and is mailed once, then 100 %; the owner raises 80 % to 90 % and its warning goes', async ({
  page,
  users,
  baseURL,
  browser,
}) => {
  test.setTimeout(300_000);
  const owner = await users.signedIn({ label: 'usage-alerts-owner' });
  const operator = new Operator(sharedPortal(baseURL!));
  const apps = new Applications(page.request, baseURL!);
  const month = new Date().toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

  const apiKey =
    await test.step('the owner creates an application, and the operator makes the organisation flat-rate with a 5-MAU licence', async () => {
      const created = await apps.create({ name: 'Orbit Chat', plan: 'basic', region: 'SG' });
      await apps.waitUntilAllActive(1);
      const organization = await operator.setContract(
        owner.email,
        '--type',
        'flat-rate',
        '--license',
        String(LICENSE_MAU),
        '--fee',
        '499.00',
        '--support-plan',
        'Gold',
      );
      expect(organization.contract).toMatchObject({ type: 'flat_rate', licenseMau: LICENSE_MAU });
      return apps.regionalApiKey(await apps.get(created.applicationId));
    });

  const eighty =
    await test.step('four users connect through the SDK and the operator imports the usage: the owner is mailed the 80 % alert', async () => {
      for (const endUser of ['ann', 'ben', 'cleo', 'dev']) await sdkPing(baseURL!, 'sg', apiKey, endUser);
      await operator.importUsage();
      const mail = await waitForMail(owner.email, licenseAlertSubject(80));
      expect(mail.text).toContain(
        `${ACME.organization} has 4 monthly active users in ${month}: 80 % of its 5-MAU licence, at or over the alert of 80 %.`,
      );
      const link = linkIn(mail, '/subscription-licenses/asc');
      expect(link.origin).toBe(new URL(baseURL!).origin);
      expect(mail.html).toContain(`href="${link.toString()}"`);
      return mail;
    });

  await test.step('the application list warns that 80 % of the 5-MAU licence is used', async () => {
    await page.goto('/apps/asc');
    await expect(licenseNotice(page, 80)).toBeVisible();
    await expect(noticesRegion(page).getByRole('link', { name: 'Usage alerts' })).toHaveCount(1);
    await screenshotsAtWidths(page, 'usage-alerts-banner');
  });

  await test.step('a second import with no new users notices nothing new', async () => {
    await operator.importUsage();
    expect(await noticesOf(page)).toMatchObject([{ kind: 'mau_percent', threshold: 80, figure: 4 }]);
    await page.reload();
    await expect(licenseNotice(page, 80)).toBeVisible();
    await expect(noticesRegion(page).getByRole('link', { name: 'Usage alerts' })).toHaveCount(1);
  });

  await test.step('a fifth user brings the 100 % mail, the only usage alert mailed since the 80 % one', async () => {
    await sdkPing(baseURL!, 'sg', apiKey, 'eli');
    await operator.importUsage();
    const hundred = await waitForMail(owner.email, licenseAlertSubject(100));
    expect(hundred.text).toContain(
      `${ACME.organization} has 5 monthly active users in ${month}: 100 % of its 5-MAU licence, at or over the alert of 100 %.`,
    );
    // One queue sends the alerts one by one, oldest first: a second 80 % mail queued by the second
    // import would have come before this one.
    expect(usageAlertMails(owner.email).map((mail) => mail.subject)).toEqual([
      eighty.subject,
      hundred.subject,
    ]);
    await page.reload();
    await expect(licenseNotice(page, 100)).toBeVisible();
    await expect(licenseNotice(page, 80)).toBeVisible();
  });

  await test.step("the warning's link opens Usage alerts on Subscription and licenses: the defaults, 80 % and 100 %", async () => {
    await noticesRegion(page).getByRole('link', { name: 'Usage alerts' }).first().click();
    await expect(page).toHaveURL(/\/subscription-licenses\/asc#usage-alerts$/);
    const section = page.getByRole('region', { name: 'Usage alerts' });
    await expect(alertsListed(page)).toHaveText([
      '80% of the license (4 MAU)',
      '100% of the license (5 MAU)',
    ]);
    await expect(section).toContainText('These are the default alerts: nothing has been saved yet.');
    // Brought into view, and kept there while the usage and the chart above it load.
    await expect(section).toBeInViewport();
    await expect(page.getByRole('img', { name: /^Line chart of monthly active users/ })).toBeAttached();
    await expect(section).toBeInViewport();
    await screenshotsAtWidths(page, 'usage-alerts-section');
  });

  await test.step('the server refuses an alert the form does not offer a flat-rate contract', async () => {
    const refused = await page.request.put('/api/v1/usage-alerts', {
      data: { alerts: [{ kind: 'projected_charge', value: 40_000 }], recipients: [] },
      headers: { origin: baseURL! },
    });
    expect(refused.status()).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'USAGE_ALERT_NOT_FOR_CONTRACT' });
  });

  await test.step('the owner raises 80 % to 90 %: the 80 % warning goes, the 100 % one stays', async () => {
    const section = page.getByRole('region', { name: 'Usage alerts' });
    await section.getByRole('button', { name: 'Edit' }).click();
    const form = section.getByRole('form', { name: 'Edit usage alerts' });
    await form.getByRole('textbox', { name: 'Alert 1 threshold' }).fill('90');
    // Filling the field scrolled the window: a full-page capture of it would draw the fixed header mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshotsAtWidths(page, 'usage-alerts-form');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Usage alerts saved.')).toBeVisible();
    await expect(alertsListed(page)).toHaveText([
      '90% of the license (5 MAU)',
      '100% of the license (5 MAU)',
    ]);
    await expect(section).not.toContainText('These are the default alerts');

    await page.goto('/apps/asc');
    await expect(licenseNotice(page, 100)).toBeVisible();
    await expect(licenseNotice(page, 80)).toHaveCount(0);
    expect(await noticesOf(page)).toMatchObject([{ kind: 'mau_percent', threshold: 100, figure: 5 }]);
  });

  await test.step('an admin reads the alerts but may not change them, in the page or at the API', async () => {
    const admin = await joinAs(browser, baseURL!, new Members(page.request, baseURL!), 'portal.admin');
    try {
      await admin.page.goto('/subscription-licenses/asc');
      await expect(alertsListed(admin.page)).toHaveText([
        '90% of the license (5 MAU)',
        '100% of the license (5 MAU)',
      ]);
      await expect(
        admin.page.getByRole('region', { name: 'Usage alerts' }).getByRole('button', { name: 'Edit' }),
      ).toHaveCount(0);
      const refused = await admin.page.request.put('/api/v1/usage-alerts', {
        data: { alerts: [{ kind: 'mau_percent', value: 80 }], recipients: [] },
        headers: { origin: baseURL! },
      });
      expect(refused.status()).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'FORBIDDEN' });
    } finally {
      await admin.context.close();
    }
  });
});
