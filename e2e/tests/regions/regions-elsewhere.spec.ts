import type { Request } from '@playwright/test';
import { sdkPing } from '../../support/applications.ts';
import { expect } from '../../support/fixtures.ts';
import { screenshotsAtWidths } from '../../support/screenshots.ts';
import { regionsElsewhereTest as test } from '../../support/regions-elsewhere.ts';

test('with the regions at their own address, the wizard reads the API key there, the check turns green and the console opens', async ({
  page,
  users,
  baseURL,
  regionsElsewhere: { regionsUrl },
}) => {
  test.setTimeout(180_000);
  const euBase = `${regionsUrl}/regions/eu`;
  // Every call the page makes to the regions' process, by path.
  const regionCalls: Request[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(regionsUrl)) regionCalls.push(request);
  });
  const failedRegionCalls: string[] = [];
  // The slower pings are aborted once one has answered; no other call may fail.
  page.on('requestfailed', (request) => {
    if (request.url().startsWith(regionsUrl) && !request.url().endsWith('/ping'))
      failedRegionCalls.push(`${request.url()}: ${request.failure()?.errorText}`);
  });
  await users.signedIn({ label: 'regions-elsewhere' });

  await test.step("the closest region is found by pinging the regions' own address", async () => {
    await page.goto('/create-app/asc/select-implementation');
    // One of the three preselected: a ping answered across sites (CORS).
    await expect(page.getByRole('radio', { checked: true })).toBeVisible({ timeout: 30_000 });
    expect(regionCalls.some((request) => /\/regions\/(sg|eu|us)\/ping$/.test(request.url()))).toBe(true);
  });

  await test.step('Next creates the app in Europe and opens the regional session there', async () => {
    await page.getByRole('checkbox', { name: /Chat/ }).check();
    await page.getByLabel('Application name').fill('Far Away');
    await page.getByRole('radio', { name: 'Europe' }).check();
    const sso = page.waitForResponse((response) => response.url().startsWith(`${euBase}/api/v2/sso/portal`), {
      timeout: 90_000,
    });
    await page.getByRole('button', { name: 'Next' }).click();
    expect((await sso).status()).toBe(200);
    await expect(page).toHaveURL(/\/create-app\/asc\/setup-application/, { timeout: 60_000 });
  });

  const apiKey =
    await test.step('the API key arrives from the region, asked with the regional session', async () => {
      const key = page.getByText(/^rk_[\w-]+$/).first();
      await expect(key).toBeVisible({ timeout: 30_000 });
      const keyCall = regionCalls.find((request) => request.url() === `${euBase}/admin/v1/network/apikey`);
      expect(await keyCall?.headerValue('authorization')).toMatch(/^Bearer \S+$/);
      await screenshotsAtWidths(page, 'wizard-api-key-remote-regions');
      return (await key.textContent())?.trim() ?? '';
    });

  await test.step('the integration check turns green once the sample client has connected to the region', async () => {
    await page.getByRole('link', { name: 'Having trouble? Troubleshoot your integration' }).click();
    await expect(page).toHaveURL(/\/create-app\/asc\/troubleshooting/);
    await page.getByRole('button', { name: 'Check integration' }).click();
    const notYet = page.getByRole('status').filter({ hasText: 'We have not seen your app connect yet.' });
    await expect(notYet).toBeVisible();
    // The command the wizard shows names the region's own address for the sample client.
    await expect(notYet).toContainText(
      `REGION_EU_URL=${euBase} npm run sdk -- ping --region eu --api-key ${apiKey}`,
    );
    await screenshotsAtWidths(page, 'wizard-troubleshooting-remote-regions');

    await sdkPing(baseURL!, 'eu', apiKey, 'alice', { REGION_EU_URL: euBase });

    await page.getByRole('button', { name: 'Check integration' }).click();
    const modal = page.getByRole('dialog', { name: 'Your application is ready' });
    await expect(modal).toBeVisible();
    await expect(modal.getByText('Far Away', { exact: false })).toBeVisible();
  });

  await test.step("Go to console opens the region's console, signed in, in a new tab", async () => {
    const modal = page.getByRole('dialog', { name: 'Your application is ready' });
    const link = modal.getByRole('link', { name: new RegExp(`^${euBase.replace(/[.]/g, '\\.')}/console/`) });
    const [consoleTab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await expect(consoleTab).toHaveURL(new RegExp(`^${euBase.replace(/[.]/g, '\\.')}/console/`), {
      timeout: 30_000,
    });
    await expect(consoleTab.getByRole('heading', { name: 'Far Away' })).toBeVisible();
    await consoleTab.close();
  });

  expect(failedRegionCalls).toEqual([]);
});
