import { expect, test, uniqueEmail, STRONG_PASSWORD } from '../../support/fixtures.ts';
import { submitInviteForm } from '../../support/members.ts';

// The §5 and §8 wording that shows where it applies (decision 041).

test('a sign-in without a password is stopped before the call: Email or password is missing', async ({ page }) => {
  let signInCalls = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/auth/sign-in/email')) signInCalls += 1;
  });
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill('someone@acme.io');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  await expect(page.getByRole('alert').filter({ hasText: 'Email or password is missing' })).toBeVisible();
  await expect(page.getByText('Please enter your password.')).toBeVisible();
  expect(signInCalls).toBe(0);

  // With both, the message goes and the call is made (and refused for an unknown account).
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  const answer = page.waitForResponse((response) => response.url().endsWith('/api/auth/sign-in/email'));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await answer;
  await expect(page.getByText('Incorrect username or password.')).toBeVisible();
  await expect(page.getByText('Email or password is missing')).toHaveCount(0);
});

test('/verify-email without an address goes to /signup saying Email is missing', async ({ page }) => {
  await page.goto('/verify-email?email=%20%20');
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole('alert').filter({ hasText: 'Email is missing' })).toBeVisible();
});

test('after sign-up, /verify-email says the account is pending verification', async ({ page }) => {
  const email = uniqueEmail('pending');
  await page.goto('/signup');
  await page.getByLabel('Corporate email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();

  await expect(page).toHaveURL(/\/verify-email$/);
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Your account is pending verification.' })).toBeVisible();
});

test('inviting a personal address says Personal email is not allowed, and the server refuses it too', async ({
  page,
  users,
  baseURL,
}) => {
  await users.signedIn({ label: 'wording-invite' });
  await page.goto('/invite-members');
  // gmx.de is not one of the seven names the form knows, so the server's list refuses it.
  await submitInviteForm(page, { emails: ['someone@gmx.de'], role: 'Analyst' });
  await expect(page.getByText('Personal email is not allowed.')).toBeVisible();

  const refused = await page.request.post('/api/v1/invitations', {
    data: { emails: ['someone@gmx.de'], roleIds: ['portal.analyst'], applicationScopes: null },
    headers: { origin: baseURL ?? '' },
  });
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toMatchObject({ code: 'CORPORATE_EMAIL_REQUIRED', message: 'Personal email is not allowed.' });
});
