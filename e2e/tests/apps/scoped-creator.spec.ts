import { Applications } from '../../support/applications.ts';
import { expect, test } from '../../support/fixtures.ts';
import { joinAs, Members, rowOf } from '../../support/members.ts';

test('a developer limited to one application creates another through the wizard and keeps seeing it', async ({
  page,
  users,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  await users.signedIn({ label: 'scoped-owner' });
  const ownerApps = new Applications(page.request, baseURL!);
  const given = await ownerApps.create({ name: 'Given Rocket', plan: 'advance', region: 'EU' });
  await ownerApps.create({ name: 'Hidden Rocket', plan: 'basic', region: 'SG' });
  await ownerApps.waitUntilAllActive(2);

  const developer = await joinAs(browser, baseURL!, new Members(page.request, baseURL!), 'portal.developer', [
    given.applicationId,
  ]);
  try {
    const devPage = developer.page;

    await test.step('the developer sees only the application they were given', async () => {
      await devPage.goto('/apps/asc');
      await expect(devPage.getByRole('article', { name: 'Given Rocket', exact: true })).toBeVisible();
      await expect(devPage.getByText('1 result', { exact: true })).toBeVisible();
      await expect(devPage.getByRole('article', { name: 'Hidden Rocket', exact: true })).toHaveCount(0);
    });

    await test.step('they create an application through the wizard', async () => {
      await devPage.goto('/create-app/asc');
      await devPage.getByRole('checkbox', { name: /Chat/ }).check();
      await devPage.getByLabel('Application name').fill('Scoped Creation');
      await devPage.getByRole('radio', { name: 'Europe' }).check();
      await devPage.getByRole('button', { name: 'Next' }).click();
      await expect(devPage).toHaveURL(/\/create-app\/asc\/setup-application/, { timeout: 60_000 });
      // The API key is read through the regional session, which checks the developer may see the app.
      await expect(devPage.getByText(/^rk_[\w-]+$/).first()).toBeVisible({ timeout: 30_000 });
    });

    await test.step('the list shows the new application beside the given one', async () => {
      await devPage.goto('/apps/asc');
      await expect(devPage.getByRole('article', { name: 'Scoped Creation', exact: true })).toBeVisible();
      await expect(devPage.getByRole('article', { name: 'Given Rocket', exact: true })).toBeVisible();
      await expect(devPage.getByText('2 results', { exact: true })).toBeVisible();
      await expect(devPage.getByRole('article', { name: 'Hidden Rocket', exact: true })).toHaveCount(0);
    });

    await test.step("the owner sees the developer's access grown to two applications", async () => {
      await page.goto('/manage-members');
      await expect(rowOf(page, developer.user.email).getByRole('button', { name: '2 applications' })).toBeVisible();
    });
  } finally {
    await developer.context.close();
  }
});
