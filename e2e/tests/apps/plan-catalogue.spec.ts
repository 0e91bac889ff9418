import { PLAN_PRICES_MICRO_USD } from '@portal/contracts';
import { expect, test } from '../../support/fixtures.ts';
import { screenshotsAtWidths } from '../../support/screenshots.ts';

const dollars = (microUsd: number) => `$${(microUsd / 1_000_000).toFixed(2)}`;

test('the plan choice shows each plan with its price, the popular one and what it includes, and creates the app with the plan picked', async ({
  page,
  users,
}) => {
  await users.signedIn({ label: 'plan-catalogue' });
  await page.goto('/create-app/asc/select-implementation');
  const plans = page.getByRole('radiogroup', { name: 'Plan' });
  const card = (name: string) => plans.getByRole('radio', { name, exact: true });

  await test.step('before a module is chosen no plan can be picked', async () => {
    await expect(page.getByText('Select at least one module to choose a plan.')).toBeVisible();
    for (const name of ['Basic', 'Advance', 'Max']) await expect(card(name)).toBeDisabled();
  });

  await test.step('a module makes advance the plan; each card shows its price in dollars, without a unit', async () => {
    await page.getByRole('checkbox', { name: /Chat/ }).check();
    await expect(card('Advance')).toBeChecked();
    await expect(card('Basic')).toContainText(dollars(PLAN_PRICES_MICRO_USD.basic));
    await expect(card('Advance')).toContainText(dollars(PLAN_PRICES_MICRO_USD.advance));
    await expect(card('Max')).toContainText(dollars(PLAN_PRICES_MICRO_USD.max));
    // §3: the unit is not shown ("per 1k MAUs" in what a plan includes is not a price's unit).
    await expect(plans).not.toContainText(/\/ ?MAU\b|per MAU\b|per monthly active user/i);
  });

  await test.step('advance is the popular one; each plan lists what it includes', async () => {
    await expect(card('Advance').getByText('Popular', { exact: true })).toBeVisible();
    await expect(plans.getByText('Popular', { exact: true })).toHaveCount(1);
    await expect(card('Basic').getByRole('listitem')).toHaveText(['Chat only']);
    await expect(card('Advance').getByRole('listitem')).toHaveText([
      'Chat',
      'Social',
      'Video in SD, 5k minutes per 1k MAUs',
      'Bots on request',
    ]);
    await expect(card('Max').getByRole('listitem')).toHaveText(['Video, 10k minutes per 1k MAUs']);
    await screenshotsAtWidths(page, 'plan-catalogue');
  });

  await test.step('another plan may be picked; changing the modules sets advance again', async () => {
    await card('Basic').click();
    await expect(card('Basic')).toBeChecked();
    await page.getByRole('checkbox', { name: /Video/ }).check();
    await expect(card('Advance')).toBeChecked();
    await page.getByRole('checkbox', { name: /Chat/ }).uncheck();
    await page.getByRole('checkbox', { name: /Video/ }).uncheck();
    for (const name of ['Basic', 'Advance', 'Max']) await expect(card(name)).not.toBeChecked();
    await expect(page.getByText('Select at least one module to choose a plan.')).toBeVisible();
  });

  await test.step('the app is created with the plan picked', async () => {
    await page.getByRole('checkbox', { name: /Chat/ }).check();
    await card('Max').click();
    await page.getByLabel('Application name').fill('Max Plan App');
    await page.getByRole('radio', { name: 'Europe' }).check();
    const created = page.waitForResponse(
      (response) => response.url().endsWith('/api/v1/applications') && response.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Next' }).click();
    const response = await created;
    expect(response.status()).toBe(201);
    const list = await page.request.get('/api/v1/applications');
    const { data } = (await list.json()) as { data: { name: string; plan: string }[] };
    expect(data.find((app) => app.name === 'Max Plan App')?.plan).toBe('max');
  });
});
