import type { Account, ApiErrorBody } from '@portal/contracts';
import { ACME, expect, test } from '../../support/fixtures.ts';
import { loginRedirectUrl, submitSignIn } from '../../support/ui.ts';

test.describe('route guards', () => {
  test('a signed-in user on /login or /signup is sent to / and on to the application list', async ({ page, users }) => {
    await users.signedIn({ label: 'guard-public' });
    for (const path of ['/login', '/signup']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/apps\/asc$/);
    }
  });

  test('/ and /home lead a super-admin to /apps/asc', async ({ page, users }) => {
    await users.signedIn({ label: 'guard-home' });
    for (const path of ['/', '/home']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/apps\/asc$/);
    }
  });

  test('a user whose organisation is not filled is sent to /setup-organization, and away from it once filled', async ({ page, users }) => {
    await users.signedIn({ label: 'guard-setup', organization: null });
    for (const path of ['/apps/asc', '/home', '/manage-members']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/setup-organization$/);
    }
    await users.setUpOrganization(ACME);
    await page.goto('/setup-organization');
    await expect(page).toHaveURL(/\/apps\/asc$/);
  });

  test('signing in from a protected link returns to it without the region parameter', async ({ page, users }) => {
    const user = await users.create({ label: 'guard-redirect' });
    await users.signIn(user);
    await users.setUpOrganization(ACME);
    await page.context().clearCookies();

    await page.goto('/apps/asc?page=2&region=EU');
    await expect(page).toHaveURL(loginRedirectUrl('/apps/asc?page=2'));
    await submitSignIn(page, user);
    await expect(page).toHaveURL(/\/apps\/asc\?page=2$/);
  });

  test('a redirect parameter pointing to another site is not followed', async ({ page, users, baseURL }) => {
    const user = await users.create({ label: 'guard-offsite' });
    await users.signIn(user);
    await users.setUpOrganization(ACME);
    await page.context().clearCookies();

    await page.goto('/login?redirect=%2F%2Fevil.example%2Fphish');
    await submitSignIn(page, user);
    await expect(page).toHaveURL(`${baseURL}/apps/asc`);
  });

  test('an unknown path shows the 404 page', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  test('/error and /forbidden say what happened', async ({ page, users }) => {
    await page.goto('/error');
    await expect(page.getByText('Sorry, something went wrong.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back Home' })).toBeVisible();
    await expect(page.getByText('Back to login')).toHaveCount(0);

    await page.goto('/forbidden');
    await expect(page.getByRole('heading', { name: 'Forbidden' })).toBeVisible();
    await expect(page.getByText('You do not have permission to access this page.')).toBeVisible();

    await users.signedIn({ label: 'guard-error' });
    await page.goto('/error');
    await expect(page.getByText('Sorry, something went wrong.')).toBeVisible();
    // Rendered as a link styled as a button: it navigates to /logout, which signs out.
    await page.getByRole('link', { name: 'Back to login' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect((await page.request.get('/api/v1/accounts/me')).status()).toBe(401);
  });
});

test.describe('the server refuses what the UI hides', () => {
  test('the account answers 401 without a session', async ({ page }) => {
    const response = await page.request.get('/api/v1/accounts/me');
    expect(response.status()).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'UNAUTHORIZED', message: 'No authorization token was found' });
  });

  test('an invalid account update answers 400 naming the field', async ({ page, users, baseURL }) => {
    await users.signedIn({ label: 'api-invalid' });
    const response = await page.request.put('/api/v1/accounts', {
      data: { ...ACME, organization: '   ', billingAddress: '1 Main St', billingState: '01', billingZipCode: '123456' },
      headers: { origin: baseURL ?? '' },
    });
    expect(response.status()).toBe(400);
    const body = (await response.json()) as ApiErrorBody;
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.field).toBe('organization');
    expect(body.fields).toContainEqual({ field: 'organization', message: 'Please enter your organization name.' });
  });

  test('the organisation cannot be set up without accepting the legal documents', async ({ page, users, baseURL }) => {
    await users.signedIn({ label: 'api-legal', organization: null });
    const response = await page.request.put('/api/v1/accounts', { data: ACME, headers: { origin: baseURL ?? '' } });
    expect(response.status()).toBe(400);
    const body = (await response.json()) as ApiErrorBody;
    expect(body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'acceptedPrivacyPolicy' });

    const me = (await (await page.request.get('/api/v1/accounts/me')).json()) as Account;
    expect(me.isAccountFilled).toBe(false);
  });
});
