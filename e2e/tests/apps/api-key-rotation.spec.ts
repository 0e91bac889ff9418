import type { Locator, Page } from '@playwright/test';
import type { RotateApiKeyResponse } from '@portal/contracts';
import { expectNoSeriousA11yViolations } from '../../support/axe.ts';
import { Applications, sdkPing, sdkPingRefused } from '../../support/applications.ts';
import { clockedTest, shownDate } from '../../support/billing-journey.ts';
import { expect } from '../../support/fixtures.ts';
import { joinAs, Members } from '../../support/members.ts';

const MINUTE_MS = 60_000;
const APP_NAME = 'Orbit Chat';

/** A time as the portal shows it ('HH:mm'), for the UTC the browser runs in. */
const shownTime = (at: Date) => at.toISOString().slice(11, 16);

/** The card's menu → API keys: the dialog listing the application's keys. */
async function openApiKeys(page: Page): Promise<Locator> {
  await page.goto('/apps/asc');
  await page
    .getByRole('article', { name: APP_NAME, exact: true })
    .getByRole('button', { name: `Actions for ${APP_NAME}` })
    .click();
  await page.getByRole('menuitem', { name: 'API keys' }).click();
  return keysDialog(page);
}

async function keysDialog(page: Page): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name: 'API keys' });
  await expect(dialog.getByRole('table', { name: `API keys of ${APP_NAME}` })).toBeVisible({
    timeout: 30_000,
  });
  return dialog;
}

const keyRow = (dialog: Locator, name: string) =>
  dialog.getByRole('row').filter({ has: dialog.page().getByText(name, { exact: true }) });

/** The one-time dialog's key, read from the page as a developer copies it; closes the dialog. */
async function newKeyShownOnce(page: Page): Promise<string> {
  const shown = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(shown.getByText('Copy this key now. It will not be shown again.')).toBeVisible();
  const secret = (await shown.locator('code').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^rk_/);
  await shown.getByRole('button', { name: 'Copy API key' }).click();
  await expect(page.getByText('Copied to clipboard').first()).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();
  return secret;
}

/*
 * Decision 043 for real: a developer given the application rotates its first key with an hour of
 * overlap, the sample SDK client connects with both keys, and on a portal started again two hours
 * later (support/billing-journey.ts: the embedded region reads the portal's clock) only the new key
 * connects, the old one refused as expired. A key made and revoked is refused at once.
 */
clockedTest(
  'a developer rotates an API key with an hour of overlap: both keys work during it, only the new one after it; a revoked key is refused at once',
  async ({ page, users, browser, clockedPortal }) => {
    clockedTest.setTimeout(360_000);
    const baseURL = clockedPortal.baseURL;
    const start = new Date(Date.now() + 5 * MINUTE_MS);
    await clockedPortal.runFrom(start);

    await users.signedIn({ label: 'key-owner' });
    const ownerApps = new Applications(page.request, baseURL);
    const created = await ownerApps.create({ name: APP_NAME, plan: 'basic', region: 'EU' });
    await ownerApps.waitUntilAllActive(1);
    const app = await ownerApps.get(created.applicationId);
    const firstKey = await ownerApps.regionalApiKey(app);
    await sdkPing(baseURL, 'eu', firstKey, 'alice');

    const developer = await joinAs(browser, baseURL, new Members(page.request, baseURL), 'portal.developer', [
      app.applicationId,
    ]);
    try {
      const devPage = developer.page;
      await developer.context.grantPermissions(['clipboard-read', 'clipboard-write']);

      const newKey = await clockedTest.step(
        'the developer rotates the first key with a 1-hour overlap and copies the new key from the one-time dialog',
        async () => {
          const dialog = await openApiKeys(devPage);
          const first = keyRow(dialog, 'Default key');
          await expect(first).toContainText('Active');
          // The sample client's session above is the key's last use.
          await expect(first).not.toContainText('Never');
          await expectNoSeriousA11yViolations(devPage, 'the API keys dialog');

          await dialog.getByRole('button', { name: 'Rotate Default key' }).click();
          const rotate = devPage.getByRole('dialog', { name: 'Rotate API key' });
          await expect(rotate).toContainText('A new key replaces Default key');
          await rotate.getByRole('radio', { name: '1 hour' }).check();
          await rotate.getByRole('textbox', { name: 'New key name' }).fill('Rotated key');
          const answered = devPage.waitForResponse(
            (response) => response.url().endsWith('/rotate') && response.request().method() === 'POST',
          );
          await rotate.getByRole('button', { name: 'Rotate key' }).click();
          const rotation = (await (await answered).json()) as RotateApiKeyResponse;
          expect(rotation.rotated.status).toBe('expiring');
          const stopsAt = new Date(rotation.rotated.expiresAt!);
          const shownStop = `${shownDate(stopsAt)} ${shownTime(stopsAt)}`;
          await expect(devPage.getByRole('dialog', { name: 'Your new API key' })).toContainText(
            `Default key keeps working until ${shownStop}.`,
          );
          const secret = await newKeyShownOnce(devPage);
          expect(secret).not.toBe(firstKey);

          await expect(keyRow(dialog, 'Rotated key')).toContainText('Active');
          await expect(keyRow(dialog, 'Rotated key')).toContainText('Never');
          await expect(keyRow(dialog, 'Rotated key')).toContainText(`${rotation.created.prefix}…`);
          await expect(keyRow(dialog, 'Default key')).toContainText(`Stops ${shownStop}`);
          // The secret is shown once: nowhere in the list.
          await expect(dialog.getByText(secret)).toHaveCount(0);
          return secret;
        },
      );

      await clockedTest.step('during the overlap the sample client connects with both keys', async () => {
        await sdkPing(baseURL, 'eu', firstKey, 'bob');
        await sdkPing(baseURL, 'eu', newKey, 'carol');
      });

      await clockedTest.step('a key made and revoked is refused at once', async () => {
        const dialog = await keysDialog(devPage);
        await expect(dialog.getByRole('textbox', { name: 'New key name' })).toHaveValue('Key 3');
        await dialog.getByRole('textbox', { name: 'New key name' }).fill('CI key');
        await dialog.getByRole('button', { name: 'Create key' }).click();
        const ciKey = await newKeyShownOnce(devPage);
        await sdkPing(baseURL, 'eu', ciKey, 'dana');

        await dialog.getByRole('button', { name: 'Revoke CI key' }).click();
        const revoke = devPage.getByRole('dialog', { name: 'Revoke API key' });
        await expect(revoke).toContainText('Apps using this key stop working at once.');
        await revoke.getByRole('button', { name: 'Revoke key' }).click();
        await expect(revoke).toBeHidden();
        await expect(keyRow(dialog, 'CI key')).toContainText('Revoked');
        await expect(dialog.getByRole('button', { name: 'Rotate CI key' })).toHaveCount(0);
        expect(await sdkPingRefused(baseURL, 'eu', ciKey, 'dana')).toContain('API_KEY_REVOKED');
      });

      await clockedTest.step(
        'two hours later only the new key connects: the old one is refused as expired and listed as Stopped',
        async () => {
          await clockedPortal.runFrom(new Date(start.getTime() + 120 * MINUTE_MS));
          expect(await sdkPingRefused(baseURL, 'eu', firstKey, 'erin')).toContain('API_KEY_EXPIRED');
          await sdkPing(baseURL, 'eu', newKey, 'erin');

          const dialog = await openApiKeys(devPage);
          await expect(keyRow(dialog, 'Default key')).toContainText('Stopped');
          await expect(dialog.getByRole('button', { name: 'Rotate Default key' })).toHaveCount(0);
          await expect(keyRow(dialog, 'Rotated key')).toContainText('Active');
          await expect(keyRow(dialog, 'Rotated key')).not.toContainText('Never');
          await expect(keyRow(dialog, 'CI key')).toContainText('Revoked');
        },
      );

      await clockedTest.step(
        "the setup wizard no longer shows the stopped key: the new key's prefix, where to find the keys, a placeholder in the samples",
        async () => {
          const rotatedPrefix = `${newKey.slice(0, 11)}…`;
          await devPage.goto(`/create-app/asc/setup-application?applicationId=${app.applicationId}`);
          await expect(devPage.getByText(rotatedPrefix, { exact: true })).toBeVisible({ timeout: 30_000 });
          await expect(
            devPage.getByText(
              "This application's first key was rotated or revoked. Use a key you saved from API keys.",
            ),
          ).toBeVisible();
          await expect(devPage.getByText(firstKey)).toHaveCount(0);
          await expect(devPage.getByText('Loading...')).toHaveCount(0);
          // The initialisation sample of the platform and product the step opens on (iOS, UI kit).
          await expect(
            devPage.locator('[data-language="swift"]').filter({ hasText: 'apiKey: "YOUR_API_KEY"' }).first(),
          ).toBeVisible();
          await devPage.getByRole('link', { name: 'Open API keys' }).click();
          await expect(devPage).toHaveURL(/\/apps\/asc$/);
          await keysDialog(devPage);
        },
      );
    } finally {
      await developer.context.close();
    }
  },
);
