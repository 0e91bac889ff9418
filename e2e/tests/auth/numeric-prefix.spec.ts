import { ACME, expect, test } from '../../support/fixtures.ts';
import { loginRedirectUrl, submitSignIn } from '../../support/ui.ts';

// §2: an optional numeric prefix on any path, kept through the login redirect (decision 041).

test('a signed-in visit to a numerically prefixed path lands on the page without the prefix, query kept', async ({ page, users }) => {
  await users.signedIn({ label: 'prefix-signed-in' });
  await page.goto('/2/apps/asc');
  await expect(page).toHaveURL(/\/apps\/asc$/);
  await expect(page.getByRole('link', { name: 'Create application' })).toBeVisible();

  await page.goto('/7/billing/asc?page=1');
  await expect(page).toHaveURL(/\/billing\/asc\?page=1$/);
});

test('a signed-out visit keeps the prefix in the redirect, and after sign-in ends on the page without it', async ({ page, users }) => {
  const user = await users.create({ label: 'prefix-signed-out' });
  await users.signIn(user);
  await users.setUpOrganization(ACME);
  await page.context().clearCookies();

  await page.goto('/2/apps/asc?region=EU');
  await expect(page).toHaveURL(loginRedirectUrl('/2/apps/asc'));
  await submitSignIn(page, user);
  await expect(page).toHaveURL(/\/apps\/asc$/);
});

test('a prefixed path to no page is the 404 page, and a segment that is not a number is no prefix', async ({ page, users }) => {
  await users.signedIn({ label: 'prefix-guards' });
  await page.goto('/2/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.goto('/2x/apps/asc');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveURL(/\/2x\/apps\/asc$/);
});
