import { ACME, expect, STRONG_PASSWORD, test, uniqueEmail, VERIFICATION_SUBJECT } from '../../support/fixtures.ts';
import { linkIn, waitForMail } from '../../support/mail-store.ts';
import {
  expectSignedInLayout,
  loginRedirectUrl,
  renewPasswordFromMail,
  requestPasswordReset,
  signOutThroughUserMenu,
  submitOrganizationForm,
  submitSignIn,
} from '../../support/ui.ts';

const NEW_PASSWORD = 'N3w!Passw0rd-2026';
const CORPORATE_EMAIL_ERROR = 'Please sign up with your corporate email. Personal email addresses are not allowed.';
const NOT_CONFIRMED = 'Your email is not confirmed yet. Enter the code we sent you or request a new one.';
const INCORRECT_CREDENTIALS = 'Incorrect username or password.';
const PASSWORD_CHANGED = 'Your password has been changed. Sign in with your new password.';

test('a new user signs up, verifies the email, sets up the organisation, signs out and renews the password', async ({ page }) => {
  test.setTimeout(120_000);
  const user = { email: uniqueEmail('journey'), password: STRONG_PASSWORD };
  const startedAt = Date.now();

  await test.step('sign-up refuses a free-mail address, then accepts a corporate one', async () => {
    await page.goto('/signup');
    const email = page.getByLabel('Corporate email');
    const submit = page.getByRole('button', { name: 'Sign up', exact: true });
    await expect(submit).toBeDisabled();
    await email.fill('someone@gmail.com');
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await email.blur();
    await expect(page.getByText(CORPORATE_EMAIL_ERROR)).toBeVisible();
    await expect(submit).toBeDisabled();

    await email.fill(user.email);
    await expect(page.getByText(CORPORATE_EMAIL_ERROR)).toBeHidden();
    await expect(submit).toBeEnabled();
    await submit.click();
  });

  await test.step('the verify-email page shows the address', async () => {
    await expect(page).toHaveURL(/\/verify-email$/);
    await expect(page.getByText(user.email)).toBeVisible();
  });

  await test.step('the mailed link verifies the address and leads to /login with a success alert', async () => {
    const mail = await waitForMail(user.email, VERIFICATION_SUBJECT, { since: startedAt });
    const link = linkIn(mail, '/confirm-user');
    expect(link.searchParams.get('email')).toBe(user.email);
    expect(link.searchParams.get('confirmation_code')).toMatch(/^\d{6}$/);
    await page.goto(link.toString());
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('status').filter({ hasText: 'Your email is verified. You can sign in now.' })).toBeVisible();

    // The link is single-use: a second visit explains itself in the portal's words.
    await page.goto(link.toString());
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('This code is not valid or was already used.', { exact: false })).toBeVisible();
  });

  await test.step('signing in with an unfilled organisation leads to /setup-organization', async () => {
    await submitSignIn(page, user);
    await expect(page).toHaveURL(/\/setup-organization$/);
  });

  await test.step('organisation form, then the legal dialog in two steps', async () => {
    await submitOrganizationForm(page, ACME, 'Singapore');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toHaveAccessibleName('Privacy Policy');
    await expect(dialog.getByText('Step 1 of 2')).toBeVisible();
    const next = dialog.getByRole('button', { name: 'Next', exact: true });
    await expect(next).toBeDisabled();
    await dialog.getByRole('checkbox', { name: 'I have read and accept the Privacy Policy' }).check();
    await expect(next).toBeEnabled();
    await next.click();

    await expect(dialog).toHaveAccessibleName('Terms and Conditions');
    await expect(dialog.getByText('Step 2 of 2')).toBeVisible();
    await dialog.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(dialog).toHaveAccessibleName('Privacy Policy');
    await expect(dialog.getByRole('checkbox', { name: 'I have read and accept the Privacy Policy' })).toBeChecked();
    await dialog.getByRole('button', { name: 'Next', exact: true }).click();

    await expect(dialog).toHaveAccessibleName('Terms and Conditions');
    const confirm = dialog.getByRole('button', { name: 'Confirm', exact: true });
    await expect(confirm).toBeDisabled();
    await dialog.getByRole('checkbox', { name: 'I have read and accept the Terms and Conditions' }).check();
    await confirm.click();
  });

  await test.step('the application list opens in the signed-in layout', async () => {
    await expect(page).toHaveURL(/\/apps\/asc$/);
    await expectSignedInLayout(page, ACME.organization);
  });

  await test.step('sign out through the user menu', async () => {
    await signOutThroughUserMenu(page);
    await expect(page).toHaveURL(/\/logout$/);
    await expect(page.getByRole('heading', { name: 'You are logged out.' })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  await test.step('protected pages send a signed-out visitor to /login with the redirect', async () => {
    for (const path of ['/apps/asc', '/manage-members']) {
      await page.goto(path);
      await expect(page).toHaveURL(loginRedirectUrl(path));
      expect(new URL(page.url()).searchParams.get('redirect')).toBe(path);
    }
  });

  let resetRequestedAt = 0;
  await test.step('request a password reset', async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/password\/reset$/);
    resetRequestedAt = await requestPasswordReset(page, user.email);
  });

  await test.step('the mailed link renews the password and leads to /login with a success alert', async () => {
    await renewPasswordFromMail(page, user.email, resetRequestedAt, NEW_PASSWORD);
    await expect(page.getByRole('status').filter({ hasText: PASSWORD_CHANGED })).toBeVisible();
  });

  await test.step('the old password is refused', async () => {
    await submitSignIn(page, user);
    await expect(page.getByRole('alert').filter({ hasText: INCORRECT_CREDENTIALS })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  await test.step('the new password signs in and the redirect is honoured', async () => {
    await page.goto('/apps/asc');
    await expect(page).toHaveURL(loginRedirectUrl('/apps/asc'));
    await submitSignIn(page, { ...user, password: NEW_PASSWORD });
    await expect(page).toHaveURL(/\/apps\/asc$/);
    await expectSignedInLayout(page, ACME.organization);
  });
});

test('signing in before verifying the email leads to /verify-email with the not-confirmed alert', async ({ page, users }) => {
  const user = await users.create({ label: 'unverified', verified: false });
  await page.goto('/login');
  await submitSignIn(page, user);
  await expect(page).toHaveURL(/\/verify-email$/);
  await expect(page.getByRole('alert').filter({ hasText: NOT_CONFIRMED })).toBeVisible();
  await expect(page.getByText(user.email)).toBeVisible();
});

test("cancelling the legal dialog signs the user out to /login", async ({ page, users }) => {
  await users.signedIn({ label: 'cancel-legal', organization: null });
  await page.goto('/setup-organization');
  await expect(page).toHaveURL(/\/setup-organization$/);
  await submitOrganizationForm(page, { ...ACME, organization: 'Cancelled Co' }, 'Singapore');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  // The text button; the dialog's close (×) button carries the same accessible name.
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);

  // Signed out for real: the session no longer opens protected pages.
  await page.goto('/setup-organization');
  await expect(page).toHaveURL(loginRedirectUrl('/setup-organization'));
  expect((await page.request.get('/api/v1/accounts/me')).status()).toBe(401);
});

test('renewing the password from the mail ends the sessions that were open elsewhere', async ({ page, users, browser, baseURL }) => {
  const user = await users.signedIn({ label: 'revoke' });
  expect((await page.request.get('/api/v1/accounts/me')).status()).toBe(200);

  const elsewhere = await browser.newContext({ baseURL });
  try {
    const other = await elsewhere.newPage();
    await other.goto('/password/reset');
    const requestedAt = await requestPasswordReset(other, user.email);
    await renewPasswordFromMail(other, user.email, requestedAt, NEW_PASSWORD);
  } finally {
    await elsewhere.close();
  }

  expect((await page.request.get('/api/v1/accounts/me')).status()).toBe(401);
  await page.goto('/apps/asc');
  await expect(page).toHaveURL(loginRedirectUrl('/apps/asc'));
});
