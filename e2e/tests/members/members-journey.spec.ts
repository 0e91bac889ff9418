import { Applications } from '../../support/applications.ts';
import { expect, test } from '../../support/fixtures.ts';
import { joinAs, Members } from '../../support/members.ts';

test.describe('roles in the browser', () => {
  test('an invited analyst is refused the application list', async ({ page, users, browser, baseURL }) => {
    await users.signedIn({ label: 'roles-analyst-owner' });
    const analyst = await joinAs(browser, baseURL!, new Members(page.request, baseURL!), 'portal.analyst');
    try {
      await analyst.page.goto('/apps/asc');
      await expect(analyst.page).toHaveURL(/\/forbidden$/);
      await expect(analyst.page.getByText('You do not have permission to access this page.')).toBeVisible();
    } finally {
      await analyst.context.close();
    }
  });

  test('a moderator sees the applications without the create button, and the server refuses the create call', async ({
    page,
    users,
    browser,
    baseURL,
  }) => {
    await users.signedIn({ label: 'roles-moderator-owner' });
    const apps = new Applications(page.request, baseURL!);
    await apps.create({ name: 'Moderated App', plan: 'basic', region: 'EU' });
    await apps.waitUntilAllActive(1);
    // The super-admin's list offers the create button, so its absence below is the role's doing.
    await page.goto('/apps/asc');
    await expect(page.getByRole('link', { name: 'Create application' })).toBeVisible();
    const moderator = await joinAs(browser, baseURL!, new Members(page.request, baseURL!), 'portal.moderator');
    try {
      await moderator.page.goto('/apps/asc');
      await expect(moderator.page).toHaveURL(/\/apps\/asc$/);
      await expect(moderator.page.getByRole('article', { name: 'Moderated App', exact: true })).toBeVisible();
      await expect(moderator.page.getByRole('link', { name: 'Create application' })).toHaveCount(0);

      const refused = await new Applications(moderator.page.request, baseURL!).post({ name: 'Not Mine', plan: 'basic', region: 'EU' });
      expect(refused.status()).toBe(403);
      expect((await apps.list()).total).toBe(1);
    } finally {
      await moderator.context.close();
    }
  });
});

test.describe('invitation links', () => {
  test('/invitation-expired says the link expired', async ({ page }) => {
    // An expired invitation cannot be made from the browser (the server dates it 7 days ahead and
    // only a database update moves that), so the page is checked by direct navigation.
    await page.goto('/invitation-expired');
    await expect(page.getByText('The invitation link has expired')).toBeVisible();
  });
});
