import { sdkPing } from '../../support/applications.ts';
import { expect, test } from '../../support/fixtures.ts';

test('the wizard creates an app, shows its API key, and the integration check turns green after the sample client connects', async ({
  page,
  users,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await users.signedIn({ label: 'wizard' });

  await test.step('an unknown step falls back to the first one, keeping the query string', async () => {
    await page.goto('/create-app/asc/nonsense?from=test');
    await expect(page).toHaveURL(/\/create-app\/asc\/select-implementation\?from=test$/);
  });

  await test.step('Next waits for a module, a name and a region, then creates and provisions the app', async () => {
    const next = page.getByRole('button', { name: 'Next' });
    await expect(next).toBeDisabled();
    await page.getByRole('checkbox', { name: /Chat/ }).check();
    await page.getByLabel('Application name').fill('Wizard Journey');
    await page.getByRole('radio', { name: 'Europe' }).check();
    await expect(next).toBeEnabled();
    await next.click();
    await expect(page).toHaveURL(/\/create-app\/asc\/setup-application/, { timeout: 60_000 });
  });

  const apiKey = await test.step('the API key arrives and is embedded in the code samples', async () => {
    const key = page.getByText(/^rk_[\w-]+$/).first();
    await expect(key).toBeVisible({ timeout: 30_000 });
    const value = (await key.textContent())?.trim() ?? '';
    await expect(page.getByText(value, { exact: false }).nth(1)).toBeVisible();
    return value;
  });

  await test.step('the integration check asks for a first connection until one happens', async () => {
    await page.getByRole('link', { name: 'Having trouble? Troubleshoot your integration' }).click();
    await expect(page).toHaveURL(/\/create-app\/asc\/troubleshooting/);
    await page.getByRole('button', { name: 'Check integration' }).click();
    await expect(page.getByText('We have not seen your app connect yet.', { exact: false })).toBeVisible();

    await sdkPing(baseURL!, 'eu', apiKey, 'alice');

    await page.getByRole('button', { name: 'Check integration' }).click();
    const modal = page.getByRole('dialog', { name: 'Your application is ready' });
    await expect(modal).toBeVisible();
    await expect(modal.getByText('Wizard Journey', { exact: false })).toBeVisible();
  });

  await test.step('the console opens in a new tab, and closing the modal returns to the list', async () => {
    const modal = page.getByRole('dialog', { name: 'Your application is ready' });
    const [consoleTab] = await Promise.all([
      page.context().waitForEvent('page'),
      modal.getByRole('link', { name: /\/regions\/eu\/console\// }).click(),
    ]);
    await expect(consoleTab.getByRole('heading', { name: 'Wizard Journey' })).toBeVisible();
    await consoleTab.close();
    // The modal's own Close button (the header's × is named Close too).
    await modal.getByRole('button', { name: 'Close' }).last().click();
    await expect(page).toHaveURL(/\/apps\/asc$/);
    await expect(page.getByRole('article', { name: 'Wizard Journey', exact: true })).toBeVisible();
  });
});
